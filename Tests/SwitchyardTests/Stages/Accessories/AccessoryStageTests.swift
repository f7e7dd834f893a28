import Dispatch
import Foundation
import Switchyard
import SwitchyardTesting
import Synchronization
import Testing

@Suite("Accessory stage")
struct AccessoryStageTests {
    @Test("service and call accessories see will start, did start, progress and the outcome, in order")
    func lifecycle() async throws {
        let recorder = EventRecorder()
        let service = RecordingAccessory("service", recorder: recorder)
        let call = RecordingAccessory("call", recorder: recorder)
        let client = try makeClient(stages: [AccessoryStage([service])], transport: MockTransport(.json(#"{"id":1,"name":"Ada"}"#)))
        var options = CallOptions()
        options.attach([call])
        _ = try await client.send(.users, .post, "/users", parameters: ["name": "Ada"], options: options)
        await service.waitForFinish()
        await call.waitForFinish()
        let serviceEvents = recorder.events.filter { $0.hasPrefix("service ") }
        #expect(
            serviceEvents == [
                "service willStart POST /users", "service didStart", "service sent 14/14 bytes (100%)",
                "service received 21/21 bytes (100%)", "service finished 200 21 B",
            ]
        )
        #expect(recorder.events.filter { $0.hasPrefix("call ") }.count == 5)
    }

    @Test("a failed call ends with the failure event; a transport that reports nothing still gets did start")
    func failure() async throws {
        let recorder = EventRecorder()
        let accessory = RecordingAccessory("a", recorder: recorder)
        let run = await StageHarness(AccessoryStage([accessory])).run(try .fixture(.get, "https://api.test/x"), respond: .connectionRefused)
        #expect(run.error?.code == .transport)
        await accessory.waitForFinish()
        #expect(recorder.events == ["a willStart GET /x", "a didStart", "a failed transport"])
    }

    @Test("a blocked accessory does not hold up the call")
    func neverBlocks() async throws {
        final class Blocking: Accessory {
            let gate = DispatchSemaphore(value: 0)
            let released = Atomic<Bool>(false)
            func callWillStart(_ call: AccessoryCall) {
                _ = gate.wait(timeout: .now() + 10)
                released.store(true, ordering: .sequentiallyConsistent)
            }
        }
        let blocking = Blocking()
        let client = try makeClient(stages: [AccessoryStage([blocking])], transport: MockTransport(.json("{}")))
        _ = try await client.send(.users, .get, "/a")
        let releasedEarly = blocking.released.load(ordering: .sequentiallyConsistent)
        #expect(!releasedEarly)
        blocking.gate.signal()
    }
}

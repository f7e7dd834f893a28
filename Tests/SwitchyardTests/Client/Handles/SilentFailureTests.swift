import Foundation
import Switchyard
import SwitchyardTesting
import Testing

/// A call whose failure the app has chosen to ignore: started with ``APIClient/start(_:options:)``, its
/// handle dropped and the service's accessories skipped, it reaches no completion and no error UI.
@Suite("A call that fails silently", .timeLimit(.minutes(1)))
struct SilentFailureTests {
    @Test("started with its accessories skipped and its handle dropped, a failing call tells no accessory")
    func failsSilently() async throws {
        let recorder = EventRecorder()
        // The app's error UI: an accessory on the service that shows every failure it is told about.
        let errorUI = RecordingAccessory("ui", recorder: recorder)
        let transport = MockTransport(sequence: [.connectionRefused, .json(#"{"id":2,"name":"Bo"}"#)], repeatsLast: true)
        let client = try makeClient(stages: [AccessoryStage([errorUI])], transport: transport)

        let silent = client.start(GetUser(id: "1"), options: CallOptions(skippedStages: [.accessories]))
        // Only the test waits for the silent call, to know it is over; the app drops the handle.
        let outcome = await silent.result
        #expect((try? outcome.get()) == nil, "the silent call did fail")

        // The accessory's events arrive in order on one queue: once the next call's finish has arrived,
        // any event of the silent call would have arrived before it.
        _ = try await client.send(GetUser(id: "2"))
        await errorUI.waitForFinish()
        #expect(recorder.events.contains("ui willStart GET /users/2"))
        #expect(!recorder.events.contains { $0.contains("/users/1") || $0.contains("failed") }, "\(recorder.events)")
    }

    @Test("the same failing call, not skipping the accessories, reaches the error UI")
    func failsVisibly() async throws {
        let recorder = EventRecorder()
        let errorUI = RecordingAccessory("ui", recorder: recorder)
        let client = try makeClient(stages: [AccessoryStage([errorUI])], transport: MockTransport(.connectionRefused))
        _ = await client.start(GetUser(id: "1")).result
        await errorUI.waitForFinish()
        #expect(recorder.events.last == "ui failed transport", "\(recorder.events)")
    }
}

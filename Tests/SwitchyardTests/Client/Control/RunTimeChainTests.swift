import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Run-time chains: each step chooses the next call from the previous value, or ends the chain")
struct RunTimeChainTests {
    /// Answers the N-th request with `N` as text; paths under `/fail` fail with a 500.
    private static func counting() -> MockTransport {
        let count = Locked(0)
        return MockTransport { request, _ in
            let n = count.withLock { count in
                count += 1
                return count
            }
            if request.path.hasPrefix("/fail") { return Response(status: .internalServerError) }
            return Response(status: .ok, headerFields: [.contentType: "text/plain"], body: Data("\(n)".utf8))
        }
    }

    /// `GET path`, its body read as a number.
    private static func number(_ path: String) -> GroupCall<Int> {
        { client, options in
            let body = try await client.send(.users, .get, path, options: options).value.bytes
            return Int(String(decoding: body, as: UTF8.self)) ?? -1
        }
    }

    @Test("a poll: each value chooses the next call until the chooser ends the chain; progress counts each chosen step")
    func pollUntilDone() async throws {
        let transport = Self.counting()
        let client = try makeClient(transport: transport)
        let events = Locked<[String]>([])
        let observer = GroupObserver(
            willStart: { total in events.withLock { $0.append("start \(total)") } },
            progress: { ended, total in events.withLock { $0.append("\(ended)/\(total)") } },
            didFinish: { ok, failed in events.withLock { $0.append("finish \(ok) \(failed)") } }
        )
        let value = try await client.chain(Self.number("/start"))
            .repeating { value in value < 4 ? Self.number("/poll/\(value)") : nil }
            .run(observer: observer)
        #expect(value == 4)
        #expect(transport.requests.map(\.path) == ["/start", "/poll/1", "/poll/2", "/poll/3"])
        #expect(events.withLock { $0 } == ["start 1", "1/1", "2/2", "3/3", "4/4", "finish 4 0"])
    }

    @Test("the chooser picks a different call by value, and a nil at once ends the chain with the first value")
    func branchesAndEnds() async throws {
        let transport = Self.counting()
        let client = try makeClient(transport: transport)
        let ended = try await client.chain(Self.number("/start")).repeating { _ in nil }.run()
        #expect(ended == 1)
        let branched = try await client.chain(Self.number("/start"))
            .repeating { value in
                switch value {
                case 2: Self.number("/even")
                case 3: Self.number("/odd")
                default: nil
                }
            }
            .then { value, client, options in try await Self.number("/after/\(value)")(client, options) }
            .run()
        #expect(branched == 5)
        #expect(transport.requests.map(\.path) == ["/start", "/start", "/even", "/odd", "/after/4"])
    }

    @Test("a chosen call that fails ends the chain with its error; nothing more is chosen")
    func chosenCallFails() async throws {
        let client = try makeClient(transport: Self.counting())
        let choices = Locked(0)
        let finished = Locked<(Int, Int)?>(nil)
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.chain(Self.number("/start"))
                .repeating { value in
                    choices.withLock { $0 += 1 }
                    return Self.number(value == 1 ? "/fail/now" : "/never")
                }
                .run(observer: GroupObserver(didFinish: { ok, failed in finished.withLock { $0 = (ok, failed) } }))
        }
        #expect(error?.code == .httpStatus && error?.status == .internalServerError)
        #expect(choices.withLock { $0 } == 1)
        #expect(finished.withLock { $0 }.map { [$0.0, $0.1] } == [1, 1])
    }

    @Test("releasing the chain's scope cancels the chosen call in flight; the chooser is not asked again")
    func cancelChosenStep() async throws {
        let client = try makeClient(
            transport: MockTransport { request, _ in
                if request.path == "/slow" { try await Task.sleep(for: .seconds(5)) }
                return Response(status: .ok, headerFields: [.contentType: "text/plain"], body: Data("1".utf8))
            }
        )
        let scope = RequestScope()
        let choices = Locked(0)
        let chain = client.chain(Self.number("/start")).repeating { _ in
            choices.withLock { $0 += 1 }
            return Self.number("/slow")
        }
        let run = Task { () async -> SwitchyardError.Code? in
            do throws(SwitchyardError) {
                _ = try await chain.run(scope: scope)
                return nil
            } catch { return error.code }
        }
        for _ in 0..<2500 where client.callsInFlight.isEmpty || choices.withLock({ $0 }) == 0 {
            try await Task.sleep(for: .milliseconds(2))
        }
        scope.cancelAll()
        #expect(await run.value == .cancelled)
        #expect(choices.withLock { $0 } == 1)
        #expect(client.callsInFlight.isEmpty)
    }
}

import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Synchronization
import Testing

/// A token provider that counts refreshes; a refresh takes `delay` and fails if told to.
final class CountingTokenProvider: TokenProvider {
    let refreshes = Atomic<Int>(0)
    let initial: String
    let fails: Bool
    let delay: Duration

    init(initial: String = "old", fails: Bool = false, delay: Duration = .milliseconds(50)) {
        self.initial = initial
        self.fails = fails
        self.delay = delay
    }

    struct RefreshRefused: Error {}

    func currentToken() async throws -> String? { initial }

    func refreshToken(replacing expired: String) async throws -> String {
        let count = refreshes.add(1, ordering: .relaxed).newValue
        try await Task.sleep(for: delay)
        if fails { throw RefreshRefused() }
        return "new-\(count)"
    }
}

/// A transport that answers 401 unless the request carries `Bearer new-…`; one per test.
func makeTokenCheckingTransport() -> MockTransport {
    MockTransport { request, _ in
        guard request.headerFields[.authorization]?.hasPrefix("Bearer new-") == true else {
            return Response(status: .unauthorized, headerFields: [.contentType: "application/json"], body: Data(#"{"code":401}"#.utf8))
        }
        return Response(status: .ok, headerFields: [.contentType: "application/json"], body: Data(#"{"id":1,"name":"Ada"}"#.utf8))
    }
}

@Suite("Authorization stage")
struct AuthorizationStageTests {
    @Test("50 concurrent calls with an expired token cause exactly one refresh, and all 50 succeed")
    func singleFlightRefresh() async throws {
        let provider = CountingTokenProvider()
        let transport = makeTokenCheckingTransport()
        let client = try makeClient(stages: [AuthorizationStage(provider: provider)], transport: transport)
        let results = await withTaskGroup(of: Result<User, SwitchyardError>.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do throws(SwitchyardError) { return .success(try await client.send(GetUser(id: "1")).value) } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 50)
        #expect(results.allSatisfy { (try? $0.get()) == User(id: 1, name: "Ada") })
        #expect(provider.refreshes.load(ordering: .relaxed) == 1)
        let sent = transport.requests.map { $0.headerFields[.authorization] ?? "" }
        // Every call ends with one accepted request carrying the new token; the refused ones carried the old.
        #expect(sent.filter { $0 == "Bearer new-1" }.count == 50)
        #expect(sent.allSatisfy { $0 == "Bearer old" || $0 == "Bearer new-1" })
        // Later calls use the new token straight away.
        _ = try await client.send(GetUser(id: "1"))
        #expect(transport.requests.last?.headerFields[.authorization] == "Bearer new-1")
        #expect(provider.refreshes.load(ordering: .relaxed) == 1)
    }

    @Test("a failing refresh fails all 50 calls with the authentication error, after one refresh attempt")
    func failingRefresh() async throws {
        let provider = CountingTokenProvider(fails: true)
        let transport = makeTokenCheckingTransport()
        let client = try makeClient(stages: [AuthorizationStage(provider: provider)], transport: transport)
        let errors = await withTaskGroup(of: SwitchyardError?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do throws(SwitchyardError) {
                        _ = try await client.send(GetUser(id: "1"))
                        return nil
                    } catch { return error }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(errors.count == 50)
        #expect(errors.allSatisfy { $0?.code == .authentication && $0?.stage == StageID("Authorization") })
        #expect(errors.allSatisfy { $0?.underlyingError is CountingTokenProvider.RefreshRefused })
        #expect(provider.refreshes.load(ordering: .relaxed) == 1)
        #expect(transport.requests.count == 50)
        // A call started after the failure tries again.
        _ = try? await client.send(GetUser(id: "1"))
        #expect(provider.refreshes.load(ordering: .relaxed) == 2)
    }

    @Test("a business code inside the envelope triggers the refresh too; a replay is refused only once")
    func businessCodeAndSingleReplay() async throws {
        let provider = CountingTokenProvider(delay: .zero)
        let envelope = MockTransport { request, _ in
            let ok = request.headerFields[.authorization] == "Bearer new-1"
            let body = ok ? #"{"code":0,"data":{"id":2,"name":"Lin"}}"# : #"{"code":4011,"msg":"token expired"}"#
            return Response(status: .ok, headerFields: [.contentType: "application/json"], body: Data(body.utf8))
        }
        let stages: [any Stage] = [
            AuthorizationStage(provider: provider, trigger: .init(businessCodes: ["4011"])), EnvelopeStage(successCodes: [0]),
        ]
        let client = try makeClient(stages: stages, transport: envelope)
        #expect(try await client.send(GetUser(id: "2")).value == User(id: 2, name: "Lin"))

        let alwaysRefused = MockTransport(.status(.unauthorized))
        let provider2 = CountingTokenProvider(delay: .zero)
        let client2 = try makeClient(stages: [AuthorizationStage(provider: provider2)], transport: alwaysRefused)
        await #expect(throws: SwitchyardError.self) { try await client2.send(GetUser(id: "1")) }
        #expect(alwaysRefused.requests.count == 2)
        #expect(alwaysRefused.contexts.map(\.attempt) == [1, 2])
        #expect(provider2.refreshes.load(ordering: .relaxed) == 1)
    }

    @Test("a missing token is asked for again on the next call (after a log-in), not remembered")
    func missingTokenIsNotCached() async throws {
        let session = Locked<String?>(nil)
        let provider = ClosureTokenProvider(current: { session.withLock { $0 } }, refresh: { _ in "unused" })
        let stage = AuthorizationStage(provider: provider)
        let before = await StageHarness(stage).run(try .fixture(.get, "https://api.test/a"))
        #expect(before.forwardedRequest?.headerFields[.authorization] == nil)
        session.withLock { $0 = "logged-in" }
        let after = await StageHarness(stage).run(try .fixture(.get, "https://api.test/a"))
        #expect(after.forwardedRequest?.headerFields[.authorization] == "Bearer logged-in")
    }

    @Test("in isolation: the token goes in the configured field and format; no token means no field")
    func isolated() async throws {
        struct Fixed: TokenProvider {
            let token: String?
            func currentToken() async throws -> String? { token }
            func refreshToken(replacing expired: String) async throws -> String { "unused" }
        }
        let stage = AuthorizationStage(provider: Fixed(token: "abc"), field: HTTPField.Name("X-Token")!, format: { "T \($0)" })
        let run = await StageHarness(stage).run(try .fixture(.get, "https://api.test/a"))
        #expect(run.forwardedRequest?.headerFields[HTTPField.Name("X-Token")!] == "T abc")
        let none = await StageHarness(AuthorizationStage(provider: Fixed(token: nil))).run(try .fixture(.get, "https://api.test/a"))
        #expect(none.forwardedRequest?.headerFields[.authorization] == nil)
        #expect(none.response?.status == .ok)
    }
}

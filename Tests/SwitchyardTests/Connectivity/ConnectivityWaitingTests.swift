import Foundation
import HTTPTypes
import SwitchyardTesting
import Testing

@testable import Switchyard

/// How a waiting call is ended from outside: each way the client cancels calls in flight.
enum WaitingCancel: String, CaseIterable, Sendable {
    case id, tag, service, account, scope

    /// Cancels the calls `id` (tagged `waiting`, account `user-1`, in `scope`) this way.
    func apply(to client: APIClient, id: RequestID, scope: inout RequestScope?) async {
        switch self {
        case .id: client.cancel(.ids([id]))
        case .tag: client.cancel(.tag("waiting"))
        case .service: client.cancel(.service(.users))
        case .account: await client.endSession(for: [.users], account: "user-1")
        case .scope: scope = nil
        }
    }
}

/// The task's value, or `nil` when it has not ended within `limit` (the task is then cancelled):
/// a bound on a wait that must end, never a way to let time pass.
func value<Success: Sendable>(of task: Task<Success, any Error>, within limit: Duration) async -> Result<Success, any Error>? {
    await withTaskGroup(of: Result<Success, any Error>?.self) { group in
        group.addTask { await task.result }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        if first == nil { task.cancel() }
        return first
    }
}

@Suite("Connectivity: waiting calls")
struct ConnectivityWaitingTests {
    /// A transport that refuses connections while `up` is false and tells `paths` every path it is asked.
    private func transport(_ up: Locked<Bool>, paths: AsyncStream<String>.Continuation) -> MockTransport {
        MockTransport { request, _ in
            paths.yield(request.path)
            guard up.withLock({ $0 }) else { throw SwitchyardError(code: .transport, message: "connection refused (mock)") }
            return Response(status: .ok, body: Data(request.path.utf8))
        }
    }

    @Test(
        "a call waiting for connectivity is cancelled at once, by each way of cancelling calls",
        .timeLimit(.minutes(1)),
        arguments: WaitingCancel.allCases
    )
    func cancelReachesWaitingCall(way: WaitingCancel) async throws {
        let (paths, seen) = AsyncStream.makeStream(of: String.self)
        let client = try makeClient(transport: transport(Locked(false), paths: seen))
        var scope: RequestScope? = RequestScope()
        var options = CallOptions(tags: ["waiting"])
        options.waitsForConnectivity = true
        options.account = "user-1"
        options.scope = scope
        let handle = client.start(DynamicEndpoint<Response>(service: .users, method: .get, path: "/a"), options: options)
        let call = Task { try await handle.value }
        // The first try has reached the transport and failed; the call now waits, in flight.
        for await path in paths where path == "/a" { break }
        for await state in client.connectivity.updates() where state == .unreachable { break }
        while client.callsInFlight.isEmpty { await Task.yield() }
        await way.apply(to: client, id: handle.id, scope: &scope)
        // The server never comes back: only the cancel can end the call.
        let outcome = try #require(await value(of: call, within: .seconds(20)), "the waiting call was not cancelled")
        guard case .failure(let error as SwitchyardError) = outcome else {
            Issue.record("the waiting call ended with \(outcome)")
            return
        }
        #expect(error.code == .cancelled)
        #expect(client.callsInFlight.isEmpty)
    }

    @Test(
        "a service's connectivity probe is asked while offline, without its stages, and the call goes once it answers",
        .timeLimit(.minutes(1))
    )
    func probeStandsInForTheCall() async throws {
        let up = Locked(false)
        let (paths, seen) = AsyncStream.makeStream(of: String.self)
        var defaults = ServiceDefaults()
        defaults.connectivityProbe = "/health"
        let secret = ClosureStage.request(id: StageID("Secret")) { request, _ in request.headerFields[.authorization] = "Bearer t" }
        let mock = transport(up, paths: seen)
        let client = try makeClient(stages: [secret], defaults: defaults, transport: mock)
        var options = CallOptions()
        options.waitsForConnectivity = true
        let call = Task { try await client.send(.users, .get, "/a", options: options).value.bodyText }
        var iterator = paths.makeAsyncIterator()
        #expect(await iterator.next() == "/a")
        // Two failed probes, and the call itself is not sent again meanwhile.
        #expect(await iterator.next() == "/health")
        #expect(await iterator.next() == "/health")
        up.withLock { $0 = true }
        let outcome = try #require(await value(of: call, within: .seconds(20)), "the call did not go once the probe answered")
        #expect(try outcome.get() == "/a")
        let sent = mock.requests.map(\.path)
        #expect(sent.first == "/a" && sent.last == "/a")
        #expect(sent.dropFirst().dropLast().allSatisfy { $0 == "/health" })
        let probes = mock.requests.filter { $0.path == "/health" }
        #expect(probes.allSatisfy { $0.headerFields[.authorization] == nil && $0.method == .get })
        #expect(mock.requests.last?.headerFields[.authorization] == "Bearer t")
    }

    @Test("a plain call of a client whose signal nobody looks at leaves the signal alone")
    func unwatchedSignalCostsNothing() async throws {
        let client = try makeClient(transport: MockTransport { _, _ in throw SwitchyardError(code: .transport, message: "refused (mock)") })
        _ = try? await client.send(.users, .get, "/a")
        #expect(!client.connectivity.isWatched)
        #expect(client.connectivity.peek == .unknown)
        // Looking at it keeps it from then on.
        #expect(client.connectivity.state == .unknown)
        _ = try? await client.send(.users, .get, "/a")
        #expect(client.connectivity.state == .unreachable)
    }

    @Test("a wait for connectivity to return ends on a return that came between two looks")
    func returnBetweenLooksIsSeen() async {
        let connectivity = Connectivity()
        connectivity.report(.unreachable)
        let since = connectivity.returnCount
        connectivity.report(.reachable)
        connectivity.report(.unreachable)
        // Unreachable again, but it came back since: the wait returns at once (an hour otherwise).
        await connectivity.waitForReturn(since: since, upTo: .seconds(3600))
        #expect(connectivity.returnCount == since + 1)
    }
}

import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// A transport whose server is down until `up` is set: it refuses connections, as a real one does.
private func switchableTransport(_ up: Locked<Bool>) -> MockTransport {
    MockTransport { request, _ in
        guard up.withLock({ $0 }) else { throw SwitchyardError(code: .transport, message: "connection refused (mock)") }
        return Response(status: .ok, body: Data(request.path.utf8))
    }
}

/// Waits until the client's connectivity reports `state`.
private func waitFor(_ state: Connectivity.State, on client: APIClient) async {
    for await next in client.connectivity.updates() where next == state { return }
}

@Suite("Connectivity")
struct ConnectivityTests {
    @Test("a connection failure makes the signal unreachable, an answer reachable again")
    func transportOutcomesDriveTheSignal() async throws {
        let up = Locked(false)
        let client = try makeClient(transport: switchableTransport(up))
        #expect(client.connectivity.state == .unknown)
        _ = try? await client.send(.users, .get, "/a")
        #expect(client.connectivity.state == .unreachable)
        up.withLock { $0 = true }
        _ = try await client.send(.users, .get, "/a")
        #expect(client.connectivity.state == .reachable)
    }

    @Test("without waitsForConnectivity a call made offline fails at once with a transport error")
    func withoutOptionFailsAtOnce() async throws {
        let transport = switchableTransport(Locked(false))
        let client = try makeClient(transport: transport)
        client.connectivity.report(.unreachable)
        do {
            _ = try await client.send(.users, .get, "/a")
            Issue.record("an offline call succeeded")
        } catch {
            #expect(error.code == .transport)
        }
        #expect(transport.requestCount == 1)
    }

    @Test("waiting calls wait while offline, then all succeed in order when connectivity returns")
    func waitingCallsSucceedInOrder() async throws {
        let up = Locked(false)
        let transport = switchableTransport(up)
        let client = try makeClient(transport: transport)
        var options = CallOptions()
        options.waitsForConnectivity = true
        let calls = Task {
            var paths: [String] = []
            for path in ["/1", "/2", "/3"] {
                paths.append(try await client.send(.users, .get, path, options: options).value.bodyText)
            }
            return paths
        }
        await waitFor(.unreachable, on: client)
        up.withLock { $0 = true }
        client.connectivity.report(.reachable)
        #expect(try await calls.value == ["/1", "/2", "/3"])
        let answered = transport.requests.map(\.path).filter { $0 != "/1" }
        #expect(answered == ["/2", "/3"])
    }

    @Test("a waiting call's deadline still bounds it: it fails with timeout")
    func deadlineBoundsWaiting() async throws {
        let client = try makeClient(transport: switchableTransport(Locked(false)))
        var options = CallOptions(deadline: .milliseconds(300))
        options.waitsForConnectivity = true
        // The code proves the deadline ended the wait (a call that waited on would never end); no
        // wall-clock bound: on a loaded two-core machine the suite's other tasks delay any timer.
        do {
            _ = try await client.send(.users, .get, "/a", options: options)
            Issue.record("an offline call succeeded")
        } catch {
            #expect(error.code == .timeout)
        }
    }

    @Test("cancelling a waiting call's task ends it with cancelled")
    func cancellingEndsWaiting() async throws {
        let client = try makeClient(transport: switchableTransport(Locked(false)))
        var options = CallOptions()
        options.waitsForConnectivity = true
        let call = Task { try await client.send(.users, .get, "/a", options: options) }
        await waitFor(.unreachable, on: client)
        call.cancel()
        do {
            _ = try await call.value
            Issue.record("a cancelled call succeeded")
        } catch let error as SwitchyardError {
            #expect(error.code == .cancelled)
        }
    }

    @Test("updates start with the current state and follow every change")
    func updatesFollowChanges() async throws {
        let connectivity = Connectivity()
        var updates = connectivity.updates().makeAsyncIterator()
        #expect(await updates.next() == .unknown)
        connectivity.report(.unreachable)
        connectivity.report(.unreachable)
        connectivity.report(.reachable)
        #expect(await updates.next() == .unreachable)
        #expect(await updates.next() == .reachable)
    }
}

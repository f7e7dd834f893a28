import AsyncHTTPClient
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestSupport
import Testing

@testable import SwitchyardAsyncHTTPClient

@Suite("AsyncHTTPClient transport: deadlines and failed connections")
struct TransportDeadlineTests {
    /// A request to a port nothing listens on.
    private static func refusedRequest() throws -> Request {
        try #require(Request(method: .get, url: URL(string: "http://127.0.0.1:1/")!))
    }

    @Test("the deadline timer keeps deadlines only on a client that does not retry failed connections")
    func sweepsOnlyWithoutConnectionRetry() async throws {
        #expect(AsyncHTTPClientTransport().sweepsDeadlines)
        let retrying = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: HTTPClient.Configuration())
        #expect(!AsyncHTTPClientTransport(client: retrying).sweepsDeadlines)
        try await retrying.shutdown()
    }

    @Test("every call, answered or timed out, leaves the deadline timer's table")
    func callsLeaveTheSweeper() async throws {
        let transport = AsyncHTTPClientTransport()
        try await withBackend(transport: transport) { _, client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask { _ = try await client.send(.utility, .get, "/bench", options: CallOptions(timeout: .seconds(30))) }
                }
                try await group.waitForAll()
            }
            await #expect(throws: SwitchyardError.self) {
                _ = try await client.send(.utility, .get, "/delay/30000", options: CallOptions(timeout: .milliseconds(100)))
            }
        }
        #expect(transport.deadlines.count == 0)
    }

    @Test("a refused connection fails at once as a transport error, long before the call's deadline")
    func refusedFailsAtOnce() async throws {
        let start = ContinuousClock.now
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await AsyncHTTPClientTransport().send(
                Self.refusedRequest(),
                context: CallContext(serviceID: .utility, timeout: .seconds(300))
            )
        }
        // A transport error long before the deadline: the refusal ended the call (a client that retried
        // refused connections would also say .transport, but only once the deadline ran out). The
        // deadline and the bound are far apart because the whole suite runs in parallel on two cores,
        // where even a refused loopback connection has waited over 30 seconds for an event loop.
        #expect(error?.code == .transport)
        #expect(ContinuousClock.now - start < .seconds(200))
    }

    @Test("on a client that retries failed connections, a call out of time reports why the connection failed")
    func retryingClientReportsTheConnectionFailure() async throws {
        let retrying = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: HTTPClient.Configuration())
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await AsyncHTTPClientTransport(client: retrying)
                .send(Self.refusedRequest(), context: CallContext(serviceID: .utility, timeout: .milliseconds(500)))
        }
        #expect(error?.code == .transport)
        try await retrying.shutdown()
    }
}

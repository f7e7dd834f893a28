import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@testable import SwitchyardOutbox

@Suite("Outbox and connectivity")
struct OutboxConnectivityTests {
    @Test("a queued call that failed to connect goes as soon as connectivity returns, whatever its backoff", .timeLimit(.minutes(1)))
    func drainsWhenConnectivityReturns() async throws {
        let up = Switch(false)
        let fixture = try OutboxFixture { _, _ in
            guard up.isOn else { throw SwitchyardError(code: .transport, message: "connection refused (mock)") }
            return Response(status: .created, headerFields: [:], body: Data("{}".utf8))
        }
        defer { fixture.remove() }
        // A backoff of an hour: only connectivity returning can send the call again within the test.
        let configuration = Outbox.Configuration(retryPolicy: RetryPolicy(baseDelay: .seconds(3600), maxDelay: .seconds(3600), jitter: 0))
        let outbox = try await fixture.open(configuration)
        let outcomes = await outbox.outcomes()
        await outbox.start()
        let entry = try await outbox.enqueue(try OutboxFixture.order("order-1"))
        for await state in fixture.client.connectivity.updates() where state == .unreachable { break }
        up.isOn = true
        fixture.client.connectivity.report(.reachable)
        var finished = outcomes.makeAsyncIterator()
        let delivered = try #require(await finished.next())
        #expect(delivered.id == entry.id)
        #expect(delivered.state == .delivered)
        #expect(fixture.transport.requestCount == 2)
        await outbox.close()
    }
}

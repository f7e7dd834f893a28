import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@testable import SwitchyardOutbox

@Suite("Outbox calls")
struct OutboxCallTests {
    @Test("a queued call's endpoint — parameters and their encoding — is sent as described")
    func endpointSurvivesTheStore() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        let call = OutboxCall(
            .shop,
            .post,
            "/orders/{id}",
            pathParameters: ["id": "7"],
            parameters: ["sku": "a-1", "count": 2],
            encoding: .form
        )
        try await outbox.enqueue(call)
        try await outbox.drain()
        let sent = try #require(fixture.transport.requests.first)
        #expect(sent.path == "/orders/7")
        #expect(sent.headerFields[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true)
        #expect(sent.bodyText == "sku=a-1&count=2")
        await outbox.close()
    }
}

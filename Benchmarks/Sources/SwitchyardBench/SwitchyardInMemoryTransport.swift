import Foundation
import HTTPTypes
import Switchyard

/// Switchyard's in-memory transport: answers 200 with the same small JSON body.
struct SwitchyardInMemoryTransport: Switchyard.Transport {
    // It answers at once: there is nothing a cancellation could abort.
    var observesCallCancellation: Bool { true }

    func send(_ request: Switchyard.Request, context: Switchyard.CallContext) async throws -> Switchyard.Response {
        Switchyard.Response(status: .ok, headerFields: [.contentType: "application/json"], body: InMemoryPayload.data)
    }
}

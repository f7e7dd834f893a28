import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The peer's in-memory transport: answers 200 with a small JSON body.
struct OpenAPIInMemoryTransport: ClientTransport {
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(InMemoryPayload.json))
    }
}

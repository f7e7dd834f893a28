import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The peer's equivalent of ``HeaderStage``: a `ClientMiddleware` that sets one header field.
struct OpenAPIHeaderMiddleware: ClientMiddleware {
    let field: HTTPField.Name
    let value: String

    init(index: Int) {
        field = HTTPField.Name("x-stage-\(index)")!
        value = "value-\(index)"
    }

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[field] = value
        return try await next(request, body, baseURL)
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `/echo` and everything below it, for any method: describes the request exactly as received.
enum EchoRoute {
    /// The JSON description of `request`: method, raw URI, raw path and query, lower-cased headers
    /// (repeated ones joined with `", "`), and the body as UTF-8 text and as Base64.
    static func respond(to request: LoopbackRequest) -> LoopbackResponse {
        var headerNames: [String] = []
        var headerValues: [String: String] = [:]
        for (name, value) in request.head.headers {
            let key = name.lowercased()
            if let existing = headerValues[key] {
                headerValues[key] = existing + ", " + value
            } else {
                headerNames.append(key)
                headerValues[key] = value
            }
        }
        let headers: JSONValue = .object(headerNames.map { ($0, .string(headerValues[$0] ?? "")) })

        let bytes = request.body.readableBytesView
        let text: JSONValue = bytes.isEmpty ? .null : .optional(String(validating: bytes, as: UTF8.self))
        let base64: JSONValue = bytes.isEmpty ? .null : .string(Data(bytes).base64EncodedString())

        let description: JSONValue = .object([
            ("method", .string(request.method.rawValue)),
            ("uri", .string(request.uri)),
            ("path", .string(String(request.path))),
            ("query", .optional(request.query.map(String.init))),
            ("headers", headers),
            ("body", text),
            ("bodyBase64", base64),
        ])
        return .json(description)
    }
}

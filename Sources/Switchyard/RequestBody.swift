public import Foundation

/// An explicit request body, for endpoints that send a model rather than loose parameters.
///
/// When an endpoint has a body, its ``Endpoint/parameters`` go to the query string.
///
/// ```swift
/// var body: RequestBody? { .json(NewUser(name: "Ada")) }
/// ```
public struct RequestBody: Sendable {
    let make: @Sendable (JSONEncoder) throws -> (data: Data, contentType: String?)

    /// A JSON body encoded from a value with the service's encoder (keys sorted).
    public static func json<Value: Encodable & Sendable>(_ value: Value) -> RequestBody {
        RequestBody { encoder in (try encoder.encode(value), "application/json") }
    }

    /// Raw bytes with a content type (`nil` to send no `Content-Type`).
    public static func data(_ data: Data, contentType: String?) -> RequestBody {
        RequestBody { _ in (data, contentType) }
    }

    /// UTF-8 text.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody { _ in (Data(text.utf8), contentType) }
    }
}

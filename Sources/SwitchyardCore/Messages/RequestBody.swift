public import Foundation

/// An explicit request body, for endpoints that send a model rather than loose parameters.
///
/// When an endpoint has a body, its `Endpoint.parameters` go to the query string.
///
/// ```swift
/// var body: RequestBody? { .json(NewUser(name: "Ada")) }
/// ```
public struct RequestBody: Sendable {
    package let make: @Sendable (JSONEncoder) throws -> (data: Data, contentType: String?)
    /// A body sent in chunks instead of ``make``'s bytes, with its content type.
    package let streamed: (body: StreamedBody, contentType: String?)?

    init(make: @escaping @Sendable (JSONEncoder) throws -> (data: Data, contentType: String?)) {
        self.make = make
        self.streamed = nil
    }

    init(streamed: StreamedBody, contentType: String?) {
        self.make = { _ in (Data(), contentType) }
        self.streamed = (streamed, contentType)
    }

    /// A JSON body encoded from a value with the service's encoder (keys sorted).
    public static func json<Value: Encodable & Sendable>(_ value: Value) -> RequestBody {
        RequestBody(make: { encoder in (try encoder.encode(value), "application/json") })
    }

    /// Raw bytes with a content type (`nil` to send no `Content-Type`).
    public static func data(_ data: Data, contentType: String?) -> RequestBody {
        RequestBody(make: { _ in (data, contentType) })
    }

    /// UTF-8 text.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(make: { _ in (Data(text.utf8), contentType) })
    }

    /// A body streamed in chunks (files and in-memory pieces), never held whole in memory.
    ///
    /// ```swift
    /// var body: RequestBody? { .stream(try! StreamedBody.file(videoURL), contentType: "video/mp4") }
    /// ```
    public static func stream(_ body: StreamedBody, contentType: String?) -> RequestBody {
        RequestBody(streamed: body, contentType: contentType)
    }

    /// The whole file at `url`, streamed from disk.
    ///
    /// - Throws: ``SwitchyardError/Code/encoding`` when the file is missing or unreadable.
    public static func file(_ url: URL, contentType: String = "application/octet-stream") throws(SwitchyardError) -> RequestBody {
        .stream(try StreamedBody.file(url), contentType: contentType)
    }
}

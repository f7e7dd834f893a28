public import Foundation
public import HTTPTypes

/// A stored response: status, header fields and body (plaintext, after decryption), when it was
/// stored, and its validators.
public struct CachedResponse: Sendable, Equatable {
    /// The key it was stored under.
    public let key: CacheKey
    /// The status code.
    public let status: Int
    /// The header fields.
    public let headerFields: HTTPFields
    /// The body.
    public let body: Data
    /// When it was stored or last revalidated.
    public var storedAt: Date

    /// Creates an entry.
    public init(key: CacheKey, status: Int, headerFields: HTTPFields, body: Data, storedAt: Date = Date()) {
        self.key = key
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.storedAt = storedAt
    }

    /// The `ETag` validator, if the server sent one.
    public var etag: String? { headerFields[.eTag] }
    /// The `Last-Modified` validator, if the server sent one.
    public var lastModified: String? { headerFields[.lastModified] }

    /// Its age now.
    public var age: TimeInterval { Date().timeIntervalSince(storedAt) }

    /// The bytes it costs in a budget.
    var cost: Int { body.count + headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count } + 64 }

    /// The response it stands for, marked with where it came from.
    func response(source: ResponseSource) -> Response {
        var response = Response(status: HTTPResponse.Status(code: status), headerFields: headerFields, body: body)
        response.source = source
        return response
    }
}

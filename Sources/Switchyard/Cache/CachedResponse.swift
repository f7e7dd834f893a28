public import Foundation
public import HTTPTypes

/// A stored response: status, header fields and body (plaintext, after decryption), when it was
/// requested and received, and what RFC 9111 needs to judge it later — its validators and the
/// request header fields its `Vary` names.
public struct CachedResponse: Sendable, Equatable {
    /// The key it was stored under.
    public let key: CacheKey
    /// The status code.
    public let status: Int
    /// The header fields (updated by a `304` that revalidates it).
    public var headerFields: HTTPFields {
        didSet { directives = StoredDirectives(headerFields) }
    }
    /// What the header fields say about freshness and variants, read once.
    public private(set) var directives: StoredDirectives
    /// The body.
    public let body: Data
    /// When the response was received, or last revalidated (RFC 9111's `response_time`).
    public var storedAt: Date
    /// When the request that fetched it, or last revalidated it, was sent (`request_time`).
    public var requestedAt: Date
    /// The request's values of the fields the response's `Vary` names, lowercased names; a field the
    /// request did not carry is absent.
    public let varyingFields: [String: String]

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - key: the key it is stored under.
    ///   - status: the status code.
    ///   - headerFields: the response's header fields.
    ///   - body: the body.
    ///   - storedAt: when the response arrived; now by default.
    ///   - requestedAt: when its request was sent; `storedAt` by default.
    ///   - varyingFields: the request's values of the fields the response's `Vary` names.
    public init(
        key: CacheKey,
        status: Int,
        headerFields: HTTPFields,
        body: Data,
        storedAt: Date = Date(),
        requestedAt: Date? = nil,
        varyingFields: [String: String] = [:]
    ) {
        self.key = key
        self.status = status
        self.headerFields = headerFields
        self.directives = StoredDirectives(headerFields)
        self.body = body
        self.storedAt = storedAt
        self.requestedAt = requestedAt ?? storedAt
        self.varyingFields = varyingFields
    }

    /// The `ETag` validator, if the server sent one.
    public var etag: String? { headerFields[.eTag] }
    /// The `Last-Modified` validator, if the server sent one.
    public var lastModified: String? { headerFields[.lastModified] }

    /// Its age now, counted from when it was stored (the app-policy view; see ``freshness(at:heuristic:)``
    /// for RFC 9111's).
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

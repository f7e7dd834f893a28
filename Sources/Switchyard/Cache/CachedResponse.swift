public import Foundation
public import HTTPTypes

/// A stored response: status, header fields and body (plaintext, after decryption), when it was
/// requested and received, and what RFC 9111 needs to judge it later — its validators and the
/// request header fields its `Vary` names.
public struct CachedResponse: Sendable, Equatable {
    /// The key it was stored under.
    public var key: CacheKey { storage.key }
    /// The status code.
    public var status: Int { storage.status }
    /// The header fields (updated by a `304` that revalidates it).
    public var headerFields: HTTPFields {
        get { storage.headerFields }
        set {
            let storage = unique()
            storage.headerFields = newValue
            storage.directives = StoredDirectives(newValue)
        }
    }
    /// What the header fields say about freshness and variants, read once.
    public var directives: StoredDirectives { storage.directives }
    /// The body.
    public var body: Data { storage.body }
    /// When the response was received, or last revalidated (RFC 9111's `response_time`).
    public var storedAt: Date {
        get { storage.storedAt }
        set { unique().storedAt = newValue }
    }
    /// When the request that fetched it, or last revalidated it, was sent (`request_time`).
    public var requestedAt: Date {
        get { storage.requestedAt }
        set { unique().requestedAt = newValue }
    }
    /// The request's values of the fields the response's `Vary` names, lowercased names; a field the
    /// request did not carry is absent.
    public var varyingFields: [String: String] { storage.varyingFields }

    /// Every field behind one reference: a hit hands out the entry with one retain, whatever its
    /// header fields and body.
    private var storage: Storage

    /// The fields, shared between copies until one of them changes.
    private final class Storage: @unchecked Sendable {
        // Unchecked: a storage is changed only through `unique()`, while no other copy can see it.
        let key: CacheKey
        let status: Int
        @exclusivity(unchecked) var headerFields: HTTPFields
        @exclusivity(unchecked) var directives: StoredDirectives
        let body: Data
        @exclusivity(unchecked) var storedAt: Date
        @exclusivity(unchecked) var requestedAt: Date
        let varyingFields: [String: String]

        init(
            key: CacheKey,
            status: Int,
            headerFields: HTTPFields,
            directives: StoredDirectives,
            body: Data,
            storedAt: Date,
            requestedAt: Date,
            varyingFields: [String: String]
        ) {
            self.key = key
            self.status = status
            self.headerFields = headerFields
            self.directives = directives
            self.body = body
            self.storedAt = storedAt
            self.requestedAt = requestedAt
            self.varyingFields = varyingFields
        }

        /// A storage with the same fields, for a copy about to change.
        func copy() -> Storage {
            Storage(
                key: key,
                status: status,
                headerFields: headerFields,
                directives: directives,
                body: body,
                storedAt: storedAt,
                requestedAt: requestedAt,
                varyingFields: varyingFields
            )
        }
    }

    /// The storage, copied first when another copy of this entry shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

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
        storage = Storage(
            key: key,
            status: status,
            headerFields: headerFields,
            directives: StoredDirectives(headerFields),
            body: body,
            storedAt: storedAt,
            requestedAt: requestedAt ?? storedAt,
            varyingFields: varyingFields
        )
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
    /// Whether two entries hold the same response, stored at the same times under the same key.
    public static func == (lhs: CachedResponse, rhs: CachedResponse) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.key == rhs.key && lhs.status == rhs.status && lhs.headerFields == rhs.headerFields && lhs.body == rhs.body
                && lhs.storedAt == rhs.storedAt && lhs.requestedAt == rhs.requestedAt && lhs.varyingFields == rhs.varyingFields)
    }

    func response(source: ResponseSource) -> Response {
        var response = Response(status: HTTPResponse.Status(code: status), headerFields: headerFields, body: body)
        response.source = source
        return response
    }
}

public import Foundation
public import HTTPTypes
@_spi(SwitchyardKernel) import SwitchyardCore

/// A stored response: status, header fields and body (plaintext, after decryption), when it was
/// requested and received, and what RFC 9111 needs to judge it later — its validators and the
/// request header fields its `Vary` names.
///
/// An entry never keeps `Set-Cookie` (nor the obsolete `Set-Cookie2`): a cookie is the answer's to
/// one user at one moment, not part of what may be served again, and a public entry's file on disk
/// would hold it in plaintext. The fields are dropped when the entry is made, when its header fields
/// change (a `304` that revalidates it) and when a disk tier reads an older file that still has them.
public struct CachedResponse: Sendable, Equatable {
    /// The key it was stored under.
    public var key: CacheKey { storage.value.key }
    /// The status code.
    public var status: Int { storage.value.status }
    /// The header fields (updated by a `304` that revalidates it).
    public var headerFields: HTTPFields {
        get { storage.value.headerFields }
        _modify {
            // Deferred, so that the derived values follow even when the caller's change throws.
            defer {
                let fields = Self.storable(storage.value.headerFields)
                storage.value.headerFields = fields
                storage.value.directives = StoredDirectives(fields)
                storage.value.head?.headerFields = fields
            }
            yield &storage.value.headerFields
        }
    }
    /// What the header fields say about freshness and variants, read once.
    public var directives: StoredDirectives { storage.value.directives }
    /// The body.
    public var body: Data { storage.value.body }
    /// When the response was received, or last revalidated (RFC 9111's `response_time`).
    public var storedAt: Date {
        get { storage.value.storedAt }
        _modify { yield &storage.value.storedAt }
    }
    /// When the request that fetched it, or last revalidated it, was sent (`request_time`).
    public var requestedAt: Date {
        get { storage.value.requestedAt }
        _modify { yield &storage.value.requestedAt }
    }
    /// The request's values of the fields the response's `Vary` names, lowercased names; a field the
    /// request did not carry is absent.
    public var varyingFields: [String: String] { storage.value.varyingFields }

    /// Every field behind one reference: a hit hands out the entry with one retain, whatever its
    /// header fields and body.
    private var storage: CopyOnWrite<Fields>

    /// The status codes `HTTPResponse.Status` can hold.
    static let statusRange = 0...999

    /// The fields, shared between copies until one of them changes.
    private struct Fields: Sendable, Equatable {
        let key: CacheKey
        let status: Int
        var headerFields: HTTPFields
        var directives: StoredDirectives
        /// The head every hit answers with, made when the fields are set rather than on each hit;
        /// `nil` for a status `HTTPResponse` cannot hold (outside 0...999).
        var head: HTTPResponse?
        let body: Data
        var storedAt: Date
        var requestedAt: Date
        let varyingFields: [String: String]
    }

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - key: the key it is stored under.
    ///   - status: the status code; an entry is served only with one from 0 to 999, the codes
    ///     `HTTPResponse.Status` can hold.
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
        let headerFields = Self.storable(headerFields)
        storage = CopyOnWrite(
            Fields(
                key: key,
                status: status,
                headerFields: headerFields,
                directives: StoredDirectives(headerFields),
                head: Self.statusRange.contains(status) ? Self.head(status, headerFields) : nil,
                body: body,
                storedAt: storedAt,
                requestedAt: requestedAt ?? storedAt,
                varyingFields: varyingFields
            )
        )
    }

    /// The fields an entry never keeps: the cookies an answer sets.
    static let unstoredFields: [HTTPField.Name] = [.setCookie, HTTPField.Name("Set-Cookie2")!]

    /// `fields` without ``unstoredFields``; the same value, not a copy, when it has none of them.
    static func storable(_ fields: HTTPFields) -> HTTPFields {
        guard unstoredFields.contains(where: { fields.contains($0) }) else { return fields }
        var kept = fields
        for name in unstoredFields { kept[values: name] = [] }
        return kept
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
        // A status outside 0...999 traps here, when the entry is served, as `HTTPResponse` requires.
        Response(head: storage.value.head ?? Self.head(status, headerFields), bytes: body, source: source)
    }

    /// The response head for `status` (with its standard reason phrase) and `fields`.
    private static func head(_ status: Int, _ fields: HTTPFields) -> HTTPResponse {
        HTTPResponse(status: HTTPResponse.Status(code: status), headerFields: fields)
    }
}

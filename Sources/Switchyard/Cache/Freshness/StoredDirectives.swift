public import Foundation
public import HTTPTypes

/// What a stored response's header fields say about its freshness and its variants, read once when
/// the response is stored (or its fields are updated) rather than on every hit.
public struct StoredDirectives: Sendable, Hashable {
    /// Its `Cache-Control` directives.
    public let control: CacheControl
    /// Its `Date`.
    public let date: Date?
    /// Its `Age`, in seconds (0 when absent).
    public let age: TimeInterval
    /// Its `Expires`: `nil` when absent, `.distantPast` when present but invalid (RFC 9111 §5.3).
    public let expires: Date?
    /// Its `Last-Modified`.
    public let lastModified: Date?
    /// The request header names its `Vary` lists, lowercased.
    public let varyNames: [String]

    /// Reads the directives of `fields`.
    ///
    /// - Parameter fields: a stored response's header fields.
    public init(_ fields: HTTPFields) {
        control = CacheControl(fields)
        date = fields[.date].flatMap(HTTPDate.parse)
        age = fields[.age].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map(TimeInterval.init) ?? 0
        expires = fields[.expires].map { HTTPDate.parse($0) ?? .distantPast }
        lastModified = fields[.lastModified].flatMap(HTTPDate.parse)
        varyNames = CachedResponse.varyNames(fields)
    }
}

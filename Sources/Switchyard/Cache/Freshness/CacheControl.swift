public import HTTPTypes

/// The `Cache-Control` directives (RFC 9111 §5.2) of a request or a response, parsed once.
///
/// Directive names are compared without case; a directive with an argument the RFC defines as a
/// number but that is not one is ignored, as §4.2.1 asks. Unknown directives are ignored.
public struct CacheControl: Sendable, Hashable {
    /// `no-store`: never store the response (or, on a request, the response to it).
    public var noStore = false
    /// `no-cache`: a stored response must be revalidated before every use.
    public var noCache = false
    /// `must-revalidate`: once stale, the response must not be used without revalidation — not even
    /// when the server cannot be reached.
    public var mustRevalidate = false
    /// `private`: only a private cache (which this one is) may store it.
    public var isPrivate = false
    /// `public`: any cache may store it.
    public var isPublic = false
    /// `immutable` (RFC 8246): the response will not change while it is fresh.
    public var immutable = false
    /// `max-age` in seconds.
    public var maxAge: Int?
    /// `s-maxage` in seconds (for shared caches; a private cache ignores it).
    public var sharedMaxAge: Int?
    /// `max-stale` on a request: the client accepts a response stale by up to this many seconds
    /// (`Int.max` when the directive has no argument).
    public var maxStale: Int?
    /// `min-fresh` on a request: the response must stay fresh for at least this many more seconds.
    public var minFresh: Int?
    /// `only-if-cached` on a request: answer from the cache or with a `504`.
    public var onlyIfCached = false

    /// No directives.
    public init() {}

    /// The directives of every `Cache-Control` field in `fields`.
    ///
    /// - Parameter fields: a request's or a response's header fields.
    public init(_ fields: HTTPFields) {
        for value in fields[values: .cacheControl] {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: "=", maxSplits: 1)
                guard let rawName = parts.first else { continue }
                let name = rawName.trimmingCharacters(in: " \t").lowercased()
                let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: " \t\"") : nil
                apply(name, argument: argument)
            }
        }
    }

    private mutating func apply(_ name: String, argument: String?) {
        let seconds = argument.flatMap { Self.deltaSeconds($0) }
        switch name {
        case "no-store": noStore = true
        case "no-cache": noCache = true
        case "must-revalidate", "proxy-revalidate": mustRevalidate = true
        case "private": isPrivate = true
        case "public": isPublic = true
        case "immutable": immutable = true
        case "max-age": maxAge = seconds ?? maxAge
        case "s-maxage": sharedMaxAge = seconds ?? sharedMaxAge
        case "max-stale": maxStale = argument == nil ? Int.max : seconds ?? maxStale
        case "min-fresh": minFresh = seconds ?? minFresh
        case "only-if-cached": onlyIfCached = true
        default: break
        }
    }

    /// A `delta-seconds` value: digits only; values past `Int32.max` are clamped to it (§1.2.2).
    private static func deltaSeconds(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return min(Int(text.prefix(12)) ?? Int(Int32.max), Int(Int32.max))
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

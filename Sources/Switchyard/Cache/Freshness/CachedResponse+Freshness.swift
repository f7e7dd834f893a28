public import Foundation
public import HTTPTypes

extension CachedResponse {
    /// What RFC 9111 §4.2 says about a stored response at one instant.
    public struct Freshness: Sendable, Hashable {
        /// How long the response stays fresh (§4.2.1): `max-age`, else `Expires` minus `Date`, else the
        /// heuristic lifetime when one was allowed; `nil` when the server gave no freshness at all.
        public let lifetime: TimeInterval?
        /// Whether ``lifetime`` is heuristic (§4.2.2).
        public let isHeuristic: Bool
        /// The response's current age (§4.2.3), counting the `Age` the server reported and the time
        /// the response spent in flight and in the cache.
        public let currentAge: TimeInterval

        /// Whether it is fresh: its lifetime is longer than its age.
        public var isFresh: Bool { (lifetime ?? 0) > currentAge }
        /// How long it has been stale (negative while fresh).
        public var staleness: TimeInterval { currentAge - (lifetime ?? 0) }
    }

    /// The response's freshness at `now`.
    ///
    /// - Parameters:
    ///   - now: the instant to judge at.
    ///   - heuristic: whether a heuristic lifetime (10% of the time since `Last-Modified`, at most a
    ///     day) may stand in when the server gave none; the RFC allows it only for responses that
    ///     carry no explicit freshness and whose status is heuristically cacheable.
    /// - Returns: the lifetime and current age.
    public func freshness(at now: Date, heuristic: Bool = false) -> Freshness {
        let control = directives.control
        let date = directives.date
        // §4.2.3: age calculation.
        let ageValue = directives.age
        let apparentAge = max(0, storedAt.timeIntervalSince(date ?? storedAt))
        let responseDelay = max(0, storedAt.timeIntervalSince(requestedAt))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        let currentAge = correctedInitialAge + max(0, now.timeIntervalSince(storedAt))
        // §4.2.1: freshness lifetime (a private cache ignores s-maxage).
        if let maxAge = control.maxAge {
            return Freshness(lifetime: TimeInterval(maxAge), isHeuristic: false, currentAge: currentAge)
        }
        if let expires = directives.expires {
            // An invalid Expires, such as "0", means already expired (§5.3).
            let lifetime = max(0, expires.timeIntervalSince(date ?? storedAt))
            return Freshness(lifetime: lifetime, isHeuristic: false, currentAge: currentAge)
        }
        if heuristic, Self.heuristicallyCacheable.contains(status), let modified = directives.lastModified {
            let lifetime = min(86_400, max(0, (date ?? storedAt).timeIntervalSince(modified)) / 10)
            return Freshness(lifetime: lifetime, isHeuristic: true, currentAge: currentAge)
        }
        return Freshness(lifetime: nil, isHeuristic: false, currentAge: currentAge)
    }

    /// Whether the request's fields match those the response's `Vary` named when it was stored
    /// (§4.1); `Vary: *` never matches.
    public func matchesVary(of request: HTTPFields) -> Bool {
        let names = directives.varyNames
        if names.isEmpty { return true }
        guard !names.contains("*") else { return false }
        for name in names {
            let value = HTTPField.Name(name).flatMap { Self.combined(request, $0) }
            guard value == varyingFields[name] else { return false }
        }
        return true
    }

    /// The request's values of the fields a response's `Vary` names, for storing with it.
    static func varyingFields(of request: HTTPFields, response: HTTPFields) -> [String: String] {
        var fields: [String: String] = [:]
        for name in varyNames(response) where name != "*" {
            if let field = HTTPField.Name(name), let value = combined(request, field) { fields[name] = value }
        }
        return fields
    }

    /// The lowercased field names of every `Vary` field.
    static func varyNames(_ fields: HTTPFields) -> [String] {
        fields[values: .vary].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// A field's values joined as one, with white space around commas normalised.
    private static func combined(_ fields: HTTPFields, _ name: HTTPField.Name) -> String? {
        let values = fields[values: name]
        guard !values.isEmpty else { return nil }
        return values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ",")
    }

    /// Statuses RFC 9110 §15.1 defines as heuristically cacheable.
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]
}

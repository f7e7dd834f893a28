import Foundation
import Synchronization

/// The cookies a ``CookieStage`` keeps, one jar per service, environment and account, in memory only.
final class CookieJar: Sendable {
    /// Whose cookies: a service's in one environment (a test server's never go to production), for
    /// one account (`nil` when the app names none).
    struct Partition: Hashable, Sendable {
        let service: ServiceID
        let environment: ServerEnvironment
        let account: String?
    }

    /// The limits of RFC 6265 §6.1, stated rather than implied.
    struct Limits: Sendable {
        /// The longest `Set-Cookie` value stored, in bytes (name, value and attributes).
        let cookieSize: Int
        /// The most cookies kept for one domain in one partition.
        let perDomain: Int
        /// The most cookies kept in one partition.
        let total: Int
    }

    let limits: Limits
    private let partitions = Mutex<[Partition: [Cookie]]>([:])

    init(limits: Limits) {
        self.limits = limits
    }

    /// Stores the cookies of `fields` (`Set-Cookie` values) for a response from `url`: a cookie with
    /// the name, domain and path of a stored one replaces it (keeping its creation time), an expired
    /// one deletes it, and the jar is then trimmed to its limits, least recently used first. An `http`
    /// response neither replaces nor deletes a `Secure` cookie, nor shadows one with a cookie of its
    /// name for a related domain and a path within the Secure one's (RFC 6265bis §5.7).
    func store(_ fields: [String], from url: URL, in partition: Partition, now: Date) {
        let cookies = fields.compactMap { Cookie.parse($0, from: url, now: now, maximumSize: limits.cookieSize) }
        guard !cookies.isEmpty else { return }
        let secureOrigin = url.scheme?.lowercased() == "https"
        partitions.withLock { partitions in
            var jar = partitions[partition] ?? []
            for var cookie in cookies {
                if !secureOrigin && jar.contains(where: { $0.secureOnly && Self.wouldShadow(cookie, $0) }) { continue }
                if let old = jar.firstIndex(where: { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }) {
                    cookie.created = jar[old].created
                    jar.remove(at: old)
                }
                if !cookie.isExpired(at: now) { jar.append(cookie) }
            }
            jar.removeAll { $0.isExpired(at: now) }
            Self.trim(&jar, limits: limits)
            partitions[partition] = jar.isEmpty ? nil : jar
        }
    }

    /// The `Cookie` value for a request to `url` (§5.4): the matching cookies, longer paths first and
    /// then older ones first; `nil` when none matches.
    func header(for url: URL, in partition: Partition, now: Date) -> String? {
        guard let host = Cookie.canonicalHost(of: url) else { return nil }
        return partitions.withLock { partitions -> String? in
            guard var jar = partitions[partition] else { return nil }
            jar.removeAll { $0.isExpired(at: now) }
            let matching = jar.indices.filter { jar[$0].matches(url, host: host, now: now) }.sorted {
                let (a, b) = (jar[$0], jar[$1])
                return a.path.count != b.path.count ? a.path.count > b.path.count : a.created < b.created
            }
            for index in matching { jar[index].lastAccess = now }
            partitions[partition] = jar.isEmpty ? nil : jar
            guard !matching.isEmpty else { return nil }
            return matching.map { "\(jar[$0].name)=\(jar[$0].value)" }.joined(separator: "; ")
        }
    }

    /// Every unexpired cookie of `partition` as one text (domain, path, name and value, sorted), for a
    /// credential fingerprint; `nil` when the jar is empty.
    func contents(of partition: Partition, now: Date) -> String? {
        let lines = partitions.withLock { $0[partition] ?? [] }.filter { !$0.isExpired(at: now) }
            .map { "\($0.domain) \($0.path) \($0.name)=\($0.value)" }
        return lines.isEmpty ? nil : lines.sorted().joined(separator: "\n")
    }

    /// Drops the cookies of `account` in every service, or every cookie when `account` is `nil`.
    func drop(account: String?) {
        partitions.withLock { partitions in
            guard let account else { return partitions.removeAll() }
            partitions = partitions.filter { $0.key.account != account }
        }
    }

    /// Whether `cookie` bears on the Secure cookie `secure`: the same name, either's domain within the
    /// other's, and a path within the Secure one's.
    private static func wouldShadow(_ cookie: Cookie, _ secure: Cookie) -> Bool {
        cookie.name == secure.name
            && (Cookie.domainMatches(cookie.domain, secure.domain) || Cookie.domainMatches(secure.domain, cookie.domain))
            && Cookie.pathMatches(cookie.path, secure.path)
    }

    /// Removes the least recently used cookies of domains over their limit, then of the jar.
    private static func trim(_ jar: inout [Cookie], limits: Limits) {
        let counts = Dictionary(grouping: jar.indices, by: { jar[$0].domain })
        for (_, indices) in counts where indices.count > limits.perDomain {
            let excess = Set(indices.sorted { jar[$0].lastAccess < jar[$1].lastAccess }.prefix(indices.count - limits.perDomain))
            jar = jar.indices.filter { !excess.contains($0) }.map { jar[$0] }
            return trim(&jar, limits: limits)
        }
        if jar.count > limits.total {
            let excess = Set(jar.indices.sorted { jar[$0].lastAccess < jar[$1].lastAccess }.prefix(jar.count - limits.total))
            jar = jar.indices.filter { !excess.contains($0) }.map { jar[$0] }
        }
    }
}

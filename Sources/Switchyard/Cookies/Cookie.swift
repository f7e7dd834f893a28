import Foundation

/// One stored cookie, in the storage model of RFC 6265 §5.3, made from a `Set-Cookie` field by the
/// parsing algorithm of §5.2 — the library's own, the same on every platform.
struct Cookie: Sendable, Equatable {
    var name: String
    var value: String
    /// The host (host-only) or the domain (and its subdomains) the cookie is sent to, lower-cased.
    var domain: String
    var path: String
    /// When the cookie expires; `nil` for a session cookie, kept until the session ends.
    var expiry: Date?
    var created: Date
    var lastAccess: Date
    /// Sent to ``domain`` exactly, not to its subdomains: the field named no `Domain`.
    var hostOnly: Bool
    /// Sent over `https` only.
    var secureOnly: Bool

    /// The cookie a `Set-Cookie` field sets for a response from `url`, or `nil` when it is to be
    /// ignored: no `name=` pair, an empty name, a `Domain` the host is not within or that is a public
    /// suffix other than the host itself (``PublicSuffixList``), `Secure` from an `http` origin, a
    /// name prefix whose rules it breaks (RFC 6265bis §4.1.3: `__Secure-` needs `Secure`; `__Host-`
    /// needs `Secure`, no `Domain` and `Path=/`), or longer than `maximumSize`.
    static func parse(_ field: String, from url: URL, now: Date, maximumSize: Int) -> Cookie? {
        guard field.utf8.count <= maximumSize, let host = canonicalHost(of: url) else { return nil }
        let secureOrigin = url.scheme?.lowercased() == "https"
        var parts = field.split(separator: ";", omittingEmptySubsequences: false)[...]
        guard let pair = parts.popFirst(), let equals = pair.firstIndex(of: "=") else { return nil }
        let name = trimmed(pair[..<equals])
        guard !name.isEmpty else { return nil }
        var cookie = Cookie(
            name: name,
            value: trimmed(pair[pair.index(after: equals)...]),
            domain: host,
            path: defaultPath(of: url),
            expiry: nil,
            created: now,
            lastAccess: now,
            hostOnly: true,
            secureOnly: false
        )
        var maxAge: Date?
        var expires: Date?
        var domainAttribute = ""
        var pathAttribute = false
        for attribute in parts {
            let key: String
            let argument: String
            if let equals = attribute.firstIndex(of: "=") {
                key = trimmed(attribute[..<equals]).lowercased()
                argument = trimmed(attribute[attribute.index(after: equals)...])
            } else {
                key = trimmed(attribute).lowercased()
                argument = ""
            }
            switch key {
            case "expires":
                if let date = CookieDate.parse(argument) { expires = date }
            case "max-age":
                if let seconds = deltaSeconds(argument) {
                    maxAge = seconds <= 0 ? .distantPast : now.addingTimeInterval(TimeInterval(min(seconds, Self.longestLife)))
                }
            case "domain":
                // §5.2.3: a leading dot is ignored; an empty value is ignored (RFC 6265bis).
                let value = argument.hasPrefix(".") ? String(argument.dropFirst()) : argument
                if !value.isEmpty { domainAttribute = value.lowercased() }
            case "path":
                cookie.path = argument.hasPrefix("/") ? argument : defaultPath(of: url)
                pathAttribute = true
            case "secure":
                cookie.secureOnly = true
            default:
                break
            }
        }
        // §5.3 step 3: Max-Age wins over Expires; with neither, a session cookie. No cookie lives
        // longer than 400 days (RFC 6265bis §5.5).
        cookie.expiry = (maxAge ?? expires).map { min($0, now.addingTimeInterval(TimeInterval(Self.longestLife))) }
        if !domainAttribute.isEmpty {
            if PublicSuffixList.isPublicSuffix(domainAttribute) {
                // §5.3 step 5: a public suffix is refused, unless it is the host itself, which then
                // gets a host-only cookie.
                guard domainAttribute == host else { return nil }
            } else if domainAttribute == host {
                cookie.hostOnly = false
            } else {
                guard domainMatches(host, domainAttribute) else { return nil }
                cookie.domain = domainAttribute
                cookie.hostOnly = false
            }
        }
        // RFC 6265bis §5.7: an insecure origin cannot set a Secure cookie.
        if cookie.secureOnly && !secureOrigin { return nil }
        // RFC 6265bis §4.1.3, names compared ignoring case: `__Secure-` only with `Secure`; `__Host-`
        // only with `Secure`, for the host alone and the whole site (no `Domain`, `Path=/`).
        if startsIgnoringCase(name, "__Secure-") && !cookie.secureOnly { return nil }
        if startsIgnoringCase(name, "__Host-") && !(cookie.secureOnly && cookie.hostOnly && pathAttribute && cookie.path == "/") {
            return nil
        }
        return cookie
    }

    /// The longest a cookie lives, in seconds: 400 days (RFC 6265bis §5.5).
    static let longestLife = 400 * 86_400

    /// Whether the cookie is sent with a request to `url` at `now` (§5.4): its domain, path and
    /// scheme match and it has not expired.
    func matches(_ url: URL, host: String, now: Date) -> Bool {
        if isExpired(at: now) { return false }
        if secureOnly && url.scheme?.lowercased() != "https" { return false }
        guard hostOnly ? host == domain : Self.domainMatches(host, domain) else { return false }
        return Self.pathMatches(Self.requestPath(of: url), path)
    }

    /// Whether the cookie has expired at `now`.
    func isExpired(at now: Date) -> Bool { expiry.map { $0 <= now } ?? false }

    /// The request host, lower-cased, as cookies are matched against it; `nil` without one.
    static func canonicalHost(of url: URL) -> String? {
        guard var host = url.host?.lowercased(), !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    /// Domain matching (§5.1.3): the same string, or `string` ends with `.` + `domain` and is a
    /// host name, not an IP address.
    static func domainMatches(_ string: String, _ domain: String) -> Bool {
        if string == domain { return true }
        guard string.hasSuffix("." + domain) else { return false }
        return !isIPAddress(string)
    }

    /// Path matching (§5.1.4): the same path, or `cookiePath` is a prefix of `requestPath` that ends
    /// with `/` or is followed by `/` there.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).first == "/"
    }

    /// The default path (§5.1.4): the request path up to, not including, its last `/`; `/` when that
    /// leaves nothing or the path does not start with `/`.
    static func defaultPath(of url: URL) -> String {
        let path = requestPath(of: url)
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// The request's path as sent, without its query; `/` when empty.
    static func requestPath(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        return path.isEmpty ? "/" : path
    }

    /// `Max-Age`'s value: an optional `-` and digits only; `nil` (ignored) otherwise.
    private static func deltaSeconds(_ text: String) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        // A delta too long for an Int is a very long time.
        return Int(text) ?? (text.hasPrefix("-") ? Int.min : Int.max)
    }

    private static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || (host.split(separator: ".").count == 4 && host.allSatisfy { $0 == "." || ($0.isASCII && $0.isNumber) })
    }

    /// Whether `name` starts with `prefix`, ignoring ASCII case.
    private static func startsIgnoringCase(_ name: String, _ prefix: String) -> Bool {
        let fold = { (byte: UInt8) in (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        let head = name.utf8.prefix(prefix.utf8.count)
        return head.count == prefix.utf8.count && head.elementsEqual(prefix.utf8) { fold($0) == fold($1) }
    }

    /// `text` without leading and trailing space and tab (§5.2's WSP).
    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

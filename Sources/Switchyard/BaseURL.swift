import Foundation

/// A validated, pre-split base URL: scheme, authority, path prefix and query.
///
/// Base URLs are parsed once, when a service is registered or a custom URL is set, so a malformed
/// one is reported early and calls only concatenate strings.
struct BaseURL: Sendable, Hashable {
    /// `http` or `https`.
    let scheme: String
    /// `host[:port]`, with IPv6 hosts in brackets.
    let authority: String
    /// The percent-encoded path without a trailing slash, e.g. `/api/v1`, or empty.
    let pathPrefix: String
    /// The percent-encoded query without `?`, or `nil`.
    let query: String?

    /// Parses and validates an absolute `http`/`https` URL.
    ///
    /// - Throws: ``SwitchyardError/Code/invalidBaseURL`` with the reason.
    init(_ string: String) throws(SwitchyardError) {
        func invalid(_ reason: String) -> SwitchyardError {
            SwitchyardError(code: .invalidBaseURL, message: "'\(string)' is not a usable base URL: \(reason)")
        }
        let trimmed = string.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw invalid("it is empty") }
        guard let components = URLComponents(string: trimmed) else { throw invalid("it cannot be parsed as a URL") }
        guard let scheme = components.scheme?.lowercased() else { throw invalid("it has no scheme; write http:// or https://") }
        guard scheme == "http" || scheme == "https" else { throw invalid("the scheme must be http or https, not \(scheme)") }
        guard let host = components.host, !host.isEmpty else { throw invalid("it has no host") }
        guard components.user == nil, components.password == nil else {
            throw invalid("credentials in URLs are not allowed; send them in a header")
        }
        guard components.fragment == nil else { throw invalid("a base URL cannot have a fragment") }
        guard host.utf8.allSatisfy({ $0 < 0x80 }) else {
            throw invalid("the host must be ASCII; use its punycode (xn--) form")
        }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        self.scheme = scheme
        self.authority = components.port.map { "\(bracketed.lowercased()):\($0)" } ?? bracketed.lowercased()
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        if !path.isEmpty, !path.hasPrefix("/") { path = "/" + path }
        self.pathPrefix = path
        if let query = components.percentEncodedQuery, !query.isEmpty {
            self.query = query
        } else {
            self.query = nil
        }
    }

    /// The URL as text, for messages.
    var absoluteString: String {
        "\(scheme)://\(authority)\(pathPrefix)" + (query.map { "?\($0)" } ?? "")
    }
}

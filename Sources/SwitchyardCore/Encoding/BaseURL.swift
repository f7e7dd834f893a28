import Foundation
package import HTTPTypes

/// A validated, pre-split base URL: scheme, authority, path prefix and query.
///
/// Base URLs are parsed once, when a service is registered or a custom URL is set, so a malformed
/// one is reported early and calls only concatenate bytes. A class, so that a call takes one
/// reference to it rather than copying four strings.
package final class BaseURL: Sendable {
    /// `http` or `https`.
    package let scheme: String
    /// `host[:port]`, lower-cased, with IPv6 hosts in brackets.
    package let authority: String
    /// The percent-encoded path without a trailing slash, e.g. `/api/v1`, or empty.
    package let pathPrefix: String
    /// The percent-encoded query without `?`, or `nil`.
    package let query: String?

    /// Parses and validates an absolute `http`/`https` URL.
    ///
    /// - Parameter string: the URL.
    /// - Throws: ``SwitchyardError/Code/invalidBaseURL`` with the reason.
    package init(_ string: String) throws(SwitchyardError) {
        let parts = try Self.parse(string, allowFragment: false)
        var path = parts.path
        while path.hasSuffix("/") { path.removeLast() }
        self.scheme = parts.scheme
        self.authority = parts.authority
        self.pathPrefix = path
        self.query = parts.query
    }

    /// The head of a request to this base. Its pseudo fields are made (and their values checked)
    /// here on every call: that costs less than copying fields made once into the request's storage.
    package func requestHead(method: HTTPRequest.Method, path: String, headerFields: HTTPFields) -> HTTPRequest {
        HTTPRequest(method: method, scheme: scheme, authority: authority, path: path, headerFields: headerFields)
    }

    /// The URL as text, for messages.
    package var absoluteString: String {
        "\(scheme)://\(authority)\(pathPrefix)" + (query.map { "?\($0)" } ?? "")
    }

    /// The validated parts of an absolute `http`/`https` URL; the path is kept as written (with any
    /// trailing slash) and is empty or starts with `/`.
    package static func parse(
        _ string: String,
        allowFragment: Bool
    ) throws(SwitchyardError) -> (scheme: String, authority: String, path: String, query: String?) {
        func invalid(_ reason: String) -> SwitchyardError {
            SwitchyardError(code: .invalidBaseURL, message: "'\(string)' is not a usable base URL: \(reason)")
        }
        let trimmed = string.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw invalid("it is empty") }
        guard let components = URLComponents(string: trimmed) else { throw invalid("it cannot be parsed as a URL") }
        guard let scheme = components.scheme?.lowercased() else { throw invalid("it has no scheme; write http:// or https://") }
        guard scheme == "http" || scheme == "https" else { throw invalid("the scheme must be http or https, not \(scheme)") }
        guard let host = components.percentEncodedHost, !host.isEmpty else { throw invalid("it has no host") }
        guard components.percentEncodedUser == nil, components.percentEncodedPassword == nil else {
            throw invalid("credentials in URLs are not allowed; send them in a header")
        }
        guard allowFragment || components.percentEncodedFragment == nil else { throw invalid("a base URL cannot have a fragment") }
        let isIPLiteral = host.hasPrefix("[") || host.contains(":")
        let hostIsValid = host.utf8.allSatisfy { byte in
            byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "_")
                || (isIPLiteral && (byte == UInt8(ascii: ":") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")))
        }
        guard hostIsValid else {
            throw invalid("the host '\(host)' may hold only letters, digits, '-', '.' and '_' (use the punycode form of a non-ASCII name)")
        }
        let bracketed = isIPLiteral && !host.hasPrefix("[") ? "[\(host)]" : host
        let authority = components.port.map { "\(bracketed.lowercased()):\($0)" } ?? bracketed.lowercased()
        var path = components.percentEncodedPath
        if !path.isEmpty, !path.hasPrefix("/") { path = "/" + path }
        let query = components.percentEncodedQuery.flatMap { $0.isEmpty ? nil : $0 }
        return (scheme, authority, path, query)
    }
}

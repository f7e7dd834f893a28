public import Foundation
public import HTTPTypes

/// An HTTP request on its way through a pipeline: a `swift-http-types` head and a body held as
/// contiguous bytes.
///
/// The body is a `Data` value, so any stage can read it as often as it likes — a signing stage
/// hashes it, a logging stage previews it, a retry sends it again — and changing it in one stage
/// never affects a copy another stage holds.
///
/// ```swift
/// var request = Request(method: .post, url: URL(string: "https://api.example.com/v1/users")!)!
/// request.headerFields[.contentType] = "application/json"
/// request.body = Data(#"{"name":"Ada"}"#.utf8)
/// ```
public struct Request: Sendable {
    /// Method, scheme, authority, path (with query) and header fields.
    public var head: HTTPRequest
    /// The body bytes, or `nil` for none.
    public var body: Data?
    /// A body sent in chunks from files (an upload of any size), or `nil`. When it is set, ``body``
    /// is `nil`: stages that need the whole body (encryption, signing) refuse such a request with a
    /// clear error, and others leave it alone.
    public var streamedBody: StreamedBody?

    /// Creates a request from a head and an optional body.
    public init(head: HTTPRequest, body: Data? = nil) {
        self.head = head
        self.body = body
    }

    /// Creates a request for an absolute `http` or `https` URL, or `nil` when the URL has no such
    /// scheme or no host, or carries credentials. The path is kept exactly (a trailing slash
    /// included); a fragment is dropped, as HTTP never sends one.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - url: an absolute URL.
    ///   - headerFields: the header fields.
    ///   - body: the body bytes.
    public init?(method: HTTPRequest.Method, url: URL, headerFields: HTTPFields = [:], body: Data? = nil) {
        guard let parts = try? BaseURL.parse(url.absoluteString, allowFragment: true) else { return nil }
        let path = parts.path.isEmpty ? "/" : parts.path
        let target = parts.query.map { path + "?" + $0 } ?? path
        self.head = HTTPRequest(method: method, scheme: parts.scheme, authority: parts.authority, path: target, headerFields: headerFields)
        self.body = body
    }

    /// The HTTP method.
    public var method: HTTPRequest.Method {
        get { head.method }
        _modify { yield &head.method }
    }

    /// The header fields.
    public var headerFields: HTTPFields {
        get { head.headerFields }
        _modify { yield &head.headerFields }
    }

    /// The request target: the percent-encoded path followed by `?query` when there is one.
    public var path: String {
        get { head.path ?? "/" }
        set { head.path = newValue }
    }

    /// The percent-encoded path without the query.
    public var pathWithoutQuery: Substring {
        let target = head.path ?? "/"
        return target.firstIndex(of: "?").map { target[..<$0] } ?? target[...]
    }

    /// The percent-encoded query (without `?`), or `nil` when the target has none.
    public var query: Substring? {
        let target = head.path ?? "/"
        return target.firstIndex(of: "?").map { target[target.index(after: $0)...] }
    }

    /// Appends already percent-encoded `name=value` pairs to the query.
    ///
    /// - Parameter encodedPairs: pairs such as `"page=2"`; they are joined with `&`.
    public mutating func appendQuery(_ encodedPairs: String) {
        guard !encodedPairs.isEmpty else { return }
        let target = head.path ?? "/"
        if let query, !query.isEmpty {
            head.path = target + "&" + encodedPairs
        } else if target.hasSuffix("?") {
            head.path = target + encodedPairs
        } else {
            head.path = target + "?" + encodedPairs
        }
    }

    /// The query's `name=value` pairs sorted, with the names in `excluded` (lower-cased, compared after
    /// percent-decoding) left out: the canonical query of cache keys and same-request identities.
    func canonicalQuery(excluding excluded: Set<String>) -> String {
        (query ?? "").split(separator: "&").filter { pair in
            let name = pair.firstIndex(of: "=").map { pair[..<$0] } ?? pair
            return !excluded.contains(PercentEncoding.decode(name).lowercased())
        }.map(String.init).sorted().joined(separator: "&")
    }

    /// The absolute URL this request is addressed to, when it can be formed.
    public var url: URL? {
        guard let scheme = head.scheme, let authority = head.authority else { return nil }
        return URL(string: "\(scheme)://\(authority)\(head.path ?? "/")")
    }

    /// Whether the request carries a body, in memory or streamed.
    public var hasBody: Bool { body != nil || streamedBody != nil }

    /// The body decoded as UTF-8 text (invalid sequences replaced), or `nil` without a body.
    public var bodyText: String? { body.map { String(decoding: $0, as: UTF8.self) } }
}

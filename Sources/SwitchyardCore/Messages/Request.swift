public import Foundation
public import HTTPTypes
import SwitchyardSupport

/// An HTTP request on its way through a pipeline: a `swift-http-types` head and at most one body,
/// held either as bytes in memory or as a stream read from files.
///
/// A body in memory is a `Data` value, so any stage can read it as often as it likes — a signing
/// stage hashes it, a logging stage previews it, a retry sends it again — and changing it in one
/// stage never affects a copy another stage holds. A stage that needs the whole body asks for it
/// with ``bodyBytes(for:)``, which gives a clear error for a streamed body instead of silently
/// seeing none.
///
/// ```swift
/// var request = Request(method: .post, url: URL(string: "https://api.example.com/v1/users")!)!
/// request.headerFields[.contentType] = "application/json"
/// request.body = .bytes(Data(#"{"name":"Ada"}"#.utf8))
/// ```
public struct Request: Sendable {
    /// The one body a request can carry: bytes in memory, or a stream read in chunks as the
    /// connection pulls them.
    public enum Body: Sendable {
        /// The whole body in memory.
        case bytes(Data)
        /// A body sent in chunks from files and in-memory pieces (an upload of any size).
        case stream(StreamedBody)

        /// The bytes of an in-memory body; `nil` for a stream.
        public var bytes: Data? {
            if case .bytes(let data) = self { return data }
            return nil
        }

        /// The stream of a streamed body; `nil` for bytes.
        public var stream: StreamedBody? {
            if case .stream(let stream) = self { return stream }
            return nil
        }
    }

    /// Method, scheme, authority, path (with query) and header fields.
    public var head: HTTPRequest
    /// The body, or `nil` for none.
    public var body: Body?

    /// Creates a request from a head and an optional body.
    @inlinable
    public init(head: HTTPRequest, body: Body? = nil) {
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
    ///   - body: the body.
    public init?(method: HTTPRequest.Method, url: URL, headerFields: HTTPFields = [:], body: Body? = nil) {
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
    public var pathWithoutQuery: Substring { targetParts.path }

    /// The percent-encoded query (without `?`), or `nil` when the target has none.
    public var query: Substring? { targetParts.query }

    /// The target (`/` when it has none) split at its first `?` (``split(target:)``), for a reader
    /// of both parts: one split instead of one for each.
    package var targetParts: (path: Substring, query: Substring?) { Self.split(target: head.path ?? "/") }

    /// A request target (or a path template) split at its first `?` byte: what precedes it, and
    /// what follows it (`nil` when there is no `?`). Split by bytes, not by `Character`s, so a mark
    /// after the `?` belongs to the query, wherever a target is split: paths, cache keys, endpoint
    /// names, redaction, signing and sealing.
    package static func split(target: String) -> (path: Substring, query: Substring?) {
        let utf8 = target.utf8
        // The bytes are scanned as a buffer (the generic view's search is several times slower): a
        // native string's in place, a short (inline) one's from a copy on the stack, any other
        // string's from a native copy.
        var bytes = target
        guard let offset = bytes.withUTF8({ $0.firstIndex(of: UInt8(ascii: "?")) }) else { return (target[...], nil) }
        let mark = utf8.index(utf8.startIndex, offsetBy: offset)
        return (target[..<mark], target[utf8.index(after: mark)...])
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

    /// The `name=value` pairs of `query` (a target's, as ``targetParts`` or ``query`` gives it)
    /// sorted, with the names in `excluded` (lower-cased, compared after percent-decoding) left out: the
    /// canonical query of cache keys and same-request identities.
    package static func canonicalQuery(_ query: Substring?, excluding excluded: Set<String>) -> String {
        guard let query, !query.isEmpty else { return "" }
        return query.split(separator: "&").filter { pair in
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
    public var hasBody: Bool { body != nil }

    /// The whole body in memory, for a stage that must read all of it (to sign, seal or rewrite it).
    ///
    /// - Parameter stage: the stage asking, named in the error.
    /// - Returns: the bytes, or `nil` when the request has no body.
    /// - Throws: ``SwitchyardError/Code/unsupportedBody`` when the body is a stream, which the stage
    ///   cannot read whole without defeating the point of streaming it.
    public func bodyBytes(for stage: StageID) throws(SwitchyardError) -> Data? {
        switch body {
        case nil: return nil
        case .bytes(let data): return data
        case .stream(let stream):
            var error = SwitchyardError(
                code: .unsupportedBody,
                message: "stage '\(stage)' needs the whole request body, but it is streamed"
                    + " (\(stream.length) bytes); send it as bytes or skip the stage for this call"
            )
            error.stage = stage
            throw error
        }
    }

    /// The in-memory body decoded as UTF-8 text (invalid sequences replaced); `nil` without a body or
    /// for a streamed one.
    public var bodyText: String? { body?.bytes.map { String(decoding: $0, as: UTF8.self) } }
}

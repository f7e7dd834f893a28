import Foundation
public import HTTPTypes

/// The content-coding rule every built-in transport follows, so that a ``Response`` means the same
/// whichever transport produced it.
///
/// - **Asking.** A request that names no `Accept-Encoding` goes out with ``defaultAcceptEncoding``
///   (`gzip, deflate`): the codings both `AsyncHTTPClientTransport` and `URLSessionTransport` decode.
///   `br` is not advertised, because AsyncHTTPClient's decoder cannot decode it. A request that names
///   its own `Accept-Encoding` is sent as it is.
/// - **Downloads.** A download to a file (``CallContext/downloadTarget``) asks for ``identity``
///   instead, so that `Content-Length`, `Range` and `If-Range` count bytes of the file.
/// - **Answers.** A body the transport decoded reaches the pipeline as if it had been sent plain: no
///   `Content-Encoding`, and a `Content-Length` equal to the decoded byte count (``decoded(_:byteCount:)``).
///   A body in a coding the transport cannot decode (`br` for AsyncHTTPClient, `compress` or an
///   unknown coding for both) fails the call with ``SwitchyardError/Code/invalidResponse``, whatever
///   the request asked for: stages never parse encoded bytes. Only a transport that decodes nothing
///   (an AsyncHTTPClient client built without decompression) hands bodies over as sent, both fields
///   kept. The transport's decompressed-size limit applies to what it decodes.
///
/// ```swift
/// // In a transport, before sending:
/// if let value = ContentCoding.acceptEncoding(for: request, context: context) {
///     outgoing.setValue(value, forHTTPHeaderField: "Accept-Encoding")
/// }
/// // Once the body has been decoded:
/// head = ContentCoding.decoded(head, byteCount: Int64(body.count))
/// ```
public enum ContentCoding {
    /// `gzip, deflate`: the `Accept-Encoding` both transports send when a request names none.
    public static let defaultAcceptEncoding = "gzip, deflate"

    /// `identity`: the `Accept-Encoding` of a download to a file, and of a transport that decodes nothing.
    public static let identity = "identity"

    /// The most bytes a transport decodes one encoded body into (64 MiB), for a body kept in memory
    /// and for a download to a file a server encoded anyway.
    public static let decompressionLimit = 64 << 20

    /// The `Accept-Encoding` a transport adds to `request`: ``identity`` for a download to a file
    /// (or when the transport decodes nothing), ``defaultAcceptEncoding`` otherwise; `nil` when the
    /// request names its own.
    ///
    /// - Parameters:
    ///   - request: the request about to be sent.
    ///   - context: the call's context (its ``CallContext/downloadTarget`` decides).
    ///   - decodes: whether the transport decodes gzip and deflate bodies.
    /// - Returns: the value to send, or `nil` to send the request's own.
    public static func acceptEncoding(for request: Request, context: CallContext, decodes: Bool = true) -> String? {
        guard request.headerFields[.acceptEncoding] == nil else { return nil }
        return context.downloadTarget != nil || !decodes ? identity : defaultAcceptEncoding
    }

    /// The content coding a response declares, lower-cased (such as `gzip`); `nil` when it declares
    /// none or `identity`.
    ///
    /// - Parameter fields: the response's header fields.
    /// - Returns: the `Content-Encoding`, trimmed and lower-cased.
    public static func coding(of fields: HTTPFields) -> String? {
        guard let value = fields[.contentEncoding]?.trimmingCharacters(in: .whitespaces).lowercased(), !value.isEmpty,
            value != identity
        else {
            return nil
        }
        return value
    }

    /// Whether a response with `head`, to a request with `method`, has a body a transport could have
    /// decoded: not the answer to a `HEAD`, not `1xx`, `204` or `304`.
    ///
    /// - Parameters:
    ///   - head: the response head.
    ///   - method: the request's method.
    /// - Returns: whether the response carries content.
    public static func hasContent(_ head: HTTPResponse, method: HTTPRequest.Method) -> Bool {
        let code = head.status.code
        return method != .head && code >= 200 && code != 204 && code != 304
    }

    /// The head of a response whose body the transport decoded: `Content-Encoding` removed,
    /// `Content-Length` set to `byteCount`, and `Transfer-Encoding` removed (it described the
    /// encoded transfer, and a message has one length or the other).
    ///
    /// - Parameters:
    ///   - head: the head as the server sent it.
    ///   - byteCount: the decoded body's size.
    /// - Returns: the head the pipeline sees.
    public static func decoded(_ head: HTTPResponse, byteCount: Int64) -> HTTPResponse {
        var head = head
        head.headerFields[.contentEncoding] = nil
        head.headerFields[.transferEncoding] = nil
        head.headerFields[.contentLength] = String(byteCount)
        return head
    }
}

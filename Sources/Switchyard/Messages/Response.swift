public import Foundation
public import HTTPTypes

/// An HTTP response on its way back through a pipeline: a `swift-http-types` head, the body as
/// contiguous bytes, and where it came from.
///
/// Stages on the way out may replace the body (decrypt it, strip nulls, unwrap an envelope); every
/// stage outside them sees the result.
public struct Response: Sendable {
    /// Status and header fields.
    public var head: HTTPResponse
    /// The body bytes (empty when the response had none).
    public var body: Data
    /// Where the response came from: the network, a cache, a stub …
    public var source: ResponseSource
    /// The file the body was written to, for a download (``CallContext/downloadTarget``); then
    /// ``body`` is empty. Stages that transform bodies pass such a response on untouched, and stages
    /// that must see the body (decryption, signature checks) refuse it with a clear error.
    public var file: DownloadedFile?

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - head: the status and header fields.
    ///   - body: the body bytes.
    ///   - source: where the response came from; ``ResponseSource/network`` by default.
    public init(head: HTTPResponse, body: Data = Data(), source: ResponseSource = .network) {
        self.head = head
        self.body = body
        self.source = source
        self.file = nil
    }

    /// Creates a response from a status, header fields and a body.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data(), source: ResponseSource = .network) {
        self.init(head: HTTPResponse(status: status, headerFields: headerFields), body: body, source: source)
    }

    /// The response status.
    public var status: HTTPResponse.Status {
        get { head.status }
        _modify { yield &head.status }
    }

    /// The header fields.
    public var headerFields: HTTPFields {
        get { head.headerFields }
        _modify { yield &head.headerFields }
    }

    /// The body decoded as UTF-8 text (invalid sequences replaced).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

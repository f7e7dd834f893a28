public import Foundation
public import HTTPTypes

/// An HTTP response on its way back through a pipeline: a `swift-http-types` head, one body — bytes
/// in memory, or a file a download wrote — and where it came from.
///
/// Stages on the way out may replace the body (decrypt it, strip nulls, unwrap an envelope); every
/// stage outside them sees the result. A stage that needs the whole body asks for it with
/// ``bodyBytes(for:)``, which gives a clear error for a downloaded file instead of an empty body.
public struct Response: Sendable {
    /// The one body a response can carry: bytes in memory, or a file a download wrote.
    public enum Body: Sendable {
        /// The whole body in memory (empty when the response had none).
        case bytes(Data)
        /// The file the body was written to, for a download (``CallContext/downloadTarget``).
        /// Stages that transform bodies pass it on untouched; stages that must read the body
        /// (decryption, signature checks) refuse it through ``Response/bodyBytes(for:)``.
        case file(DownloadedFile)
        /// The body as it arrives, for a streamed call (``CallContext/streamBufferLimit``). Stages that
        /// look at bodies may wrap it (``ResponseStream/map(_:)``); stages that must read the whole
        /// body refuse it through ``Response/bodyBytes(for:)``.
        case stream(ResponseStream)

        /// The bytes of an in-memory body; `nil` for a file.
        public var bytes: Data? {
            if case .bytes(let data) = self { return data }
            return nil
        }

        /// The downloaded file; `nil` for bytes.
        public var file: DownloadedFile? {
            if case .file(let file) = self { return file }
            return nil
        }

        /// The streamed body; `nil` for bytes or a file.
        public var stream: ResponseStream? {
            if case .stream(let stream) = self { return stream }
            return nil
        }

        /// The body's length in bytes, in memory or on disk; 0 for a stream, whose length is known only
        /// once it has been read.
        public var count: Int {
            switch self {
            case .bytes(let data): data.count
            case .file(let file): Int(file.byteCount)
            case .stream: 0
            }
        }
    }

    /// Status and header fields.
    public var head: HTTPResponse
    /// The body.
    public var body: Body
    /// Where the response came from: the network, a cache, a stub …
    public var source: ResponseSource
    /// What stages learned about the response (the envelope's code and message, where redirects led,
    /// whether it was verified …).
    public var metadata = ResponseMetadata()

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - head: the status and header fields.
    ///   - body: the body; empty bytes by default.
    ///   - source: where the response came from; ``ResponseSource/network`` by default.
    public init(head: HTTPResponse, body: Body = .bytes(Data()), source: ResponseSource = .network) {
        self.head = head
        self.body = body
        self.source = source
    }

    /// Creates a response with an in-memory body.
    ///
    /// - Parameters:
    ///   - head: the status and header fields.
    ///   - bytes: the body bytes.
    ///   - source: where the response came from.
    public init(head: HTTPResponse, bytes: Data, source: ResponseSource = .network) {
        self.init(head: head, body: .bytes(bytes), source: source)
    }

    /// Creates a response from a status, header fields and a body.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data(), source: ResponseSource = .network) {
        self.init(head: HTTPResponse(status: status, headerFields: headerFields), body: .bytes(body), source: source)
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

    /// The whole body in memory, for a stage that must read all of it (to verify, decrypt or rewrite it).
    ///
    /// - Parameter stage: the stage asking, named in the error.
    /// - Returns: the bytes.
    /// - Throws: ``SwitchyardError/Code/unsupportedBody`` when the body was written to a file by a
    ///   download.
    public func bodyBytes(for stage: StageID) throws(SwitchyardError) -> Data {
        switch body {
        case .bytes(let data): return data
        case .file(let file):
            var error = SwitchyardError(
                code: .unsupportedBody,
                message: "stage '\(stage)' needs the whole response body, but it was written to a file "
                    + "(\(file.byteCount) bytes); skip the stage for downloads"
            )
            error.stage = stage
            throw error
        case .stream:
            var error = SwitchyardError(
                code: .unsupportedBody,
                message: "stage '\(stage)' needs the whole response body, but the call streams it; "
                    + "skip the stage for streamed calls"
            )
            error.stage = stage
            throw error
        }
    }

    /// The in-memory body, or empty for a downloaded file: for stages that pass downloads through.
    public var bytes: Data {
        get { body.bytes ?? Data() }
        set { body = .bytes(newValue) }
    }

    /// The in-memory body decoded as UTF-8 text (invalid sequences replaced); empty for a file.
    public var bodyText: String { String(decoding: bytes, as: UTF8.self) }
}

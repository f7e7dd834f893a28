/// What a trace tells of a body without showing it: its size, its media type and a digest that
/// changes when it does.
public struct BodySummary: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Its size in bytes; 0 for a stream, whose size is not known while it is traced.
    public var size: Int
    /// Its media type, from the message's `Content-Type` field.
    public var mediaType: String?
    /// A 64-bit FNV-1a digest in hex of the body as a log would show it — of its redacted text for
    /// JSON, form and other text bodies, so that no secret can be guessed from it; of its bytes
    /// otherwise (ciphertext, images). It tells bodies apart; it is no integrity check.
    public var digest: String
    /// Whether the body is a stream (an upload from a sequence, an answer read as it arrives) or a
    /// downloaded file, neither of which is read by the trace.
    public var isStream: Bool

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - size: the size in bytes.
    ///   - mediaType: the media type.
    ///   - digest: the digest in hex.
    ///   - isStream: whether the body is a stream or a file.
    public init(size: Int, mediaType: String?, digest: String, isStream: Bool = false) {
        self.size = size
        self.mediaType = mediaType
        self.digest = digest
        self.isStream = isStream
    }

    /// `412 B application/json #9f3c…` or `stream text/event-stream`.
    public var description: String {
        let type = mediaType.map { " " + $0 } ?? ""
        return isStream ? "stream\(type)" : "\(size) B\(type) #\(digest)"
    }
}

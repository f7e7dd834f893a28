import Foundation
import Switchyard

extension HARCapture {
    /// What of a body is recorded: its `text` (redacted text, or base64 of binary bytes the stage
    /// was asked to keep), its `encoding` (`base64` or `nil`), and a `comment` when it is cut, decoded
    /// leniently or left out.
    typealias Recorded = (text: String?, encoding: String?, comment: String?)

    /// What a text body shows through redaction: its redacted text (with a note when its bytes were
    /// not clean UTF-8), or why it is not shown.
    enum RedactedText {
        case shown(String, note: String?)
        case hidden(String)
    }

    /// What of a body is recorded (see ``HARRecordingStage/Bodies``): never its bytes as they came,
    /// unless it is declared binary and the stage was asked to keep that type.
    func content(_ body: Data, contentType: String) -> Recorded {
        guard !body.isEmpty else { return ("", nil, nil) }
        guard bodies != .none else { return (nil, nil, "body not recorded (HARRecordingStage bodies: .none)") }
        let mediaType = MediaType.of(contentType)
        if mediaType.hasPrefix("multipart/") { return multipart(body, contentType: contentType) }
        if Self.isBinary(mediaType) { return binary(body, mediaType: mediaType) }
        switch redactedText(body, contentType: contentType) {
        case .shown(let text, let note):
            return cut(text, note: note)
        case .hidden(let reason):
            return (nil, nil, reason)
        }
    }

    /// A body's text through redaction. Clean UTF-8 is redacted as it is; the bytes of a text or JSON
    /// type that are not are decoded leniently first (``LenientText``), so a Latin-1 byte or a
    /// control character never lets a secret through unredacted; any other bytes are not shown.
    func redactedText(_ body: Data, contentType: String) -> RedactedText {
        let mediaType = MediaType.of(contentType)
        let type = mediaType.isEmpty ? "no type" : mediaType
        if Redaction.text(body) != nil {
            guard let text = redaction.redactBody(body, contentType: contentType) else {
                return .hidden("text of \(type) not recorded: redaction reads JSON, form pairs and text/ types only")
            }
            return .shown(text, note: nil)
        }
        guard LenientText.isText(mediaType) else {
            return .hidden("\(body.count) bytes of \(type), neither UTF-8 text nor a declared binary type: not recorded")
        }
        let decoded = LenientText.decode(body, contentType: contentType)
        guard let text = redaction.redactBody(Data(decoded.text.utf8), contentType: contentType) else {
            return .hidden("text of \(type) not recorded: redaction reads JSON, form pairs and text/ types only")
        }
        return .shown(text, note: "not UTF-8 text: \(decoded.how), then redacted")
    }

    /// A binary body: its bytes in base64 when the stage was asked to keep its type, otherwise
    /// nothing but the comment (its size and type are the entry's own fields).
    private func binary(_ body: Data, mediaType: String) -> Recorded {
        guard bodies.keepsContent(ofBinaryType: mediaType) else {
            return (
                nil, nil,
                "\(body.count) bytes of \(mediaType) not recorded (HARRecordingStage bodies: .allIncludingBinary names none of it)"
            )
        }
        let kept = body.prefix(maxBodyBytes)
        let comment = kept.count < body.count ? "binary body cut to its first \(kept.count) of \(body.count) bytes" : nil
        return (kept.base64EncodedString(), "base64", comment)
    }

    /// Redacted text cut at the recorder's limit, with `note` and the cut in the comment.
    func cut(_ text: String, note: String?) -> Recorded {
        let kept = Self.prefix(text, maxBytes: maxBodyBytes)
        let cutNote = kept.utf8.count < text.utf8.count ? "text cut to its first \(kept.utf8.count) bytes, after redaction" : nil
        let notes = [note, cutNote].compactMap { $0 }
        return (kept, nil, notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    /// Whether a media type declares binary content: images, audio, video, fonts, models, and the
    /// archive, document and serialisation types that are never text.
    static func isBinary(_ mediaType: String) -> Bool {
        let families = ["image/", "audio/", "video/", "font/", "model/"]
        if families.contains(where: { mediaType.hasPrefix($0) }) { return true }
        return binaryTypes.contains(mediaType) || mediaType.hasSuffix("+zip") || mediaType.hasSuffix("+gzip")
    }

    private static let binaryTypes: Set<String> = [
        "application/octet-stream", "application/pdf", "application/zip", "application/gzip", "application/x-gzip",
        "application/x-tar", "application/x-bzip2", "application/x-xz", "application/zstd", "application/x-7z-compressed",
        "application/protobuf", "application/x-protobuf", "application/vnd.google.protobuf", "application/grpc",
        "application/msgpack", "application/x-msgpack", "application/vnd.msgpack", "application/cbor", "application/wasm",
        "application/java-archive", "application/vnd.apple.pkpass", "application/vnd.sqlite3", "application/x-sqlite3",
    ]

    /// The longest prefix of `text` of at most `maxBytes` UTF-8 bytes that ends on a character boundary.
    static func prefix(_ text: String, maxBytes: Int) -> String {
        let utf8 = text.utf8
        guard utf8.count > maxBytes else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: maxBytes)
        // Back off continuation bytes (10xxxxxx) so the cut never splits a scalar.
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(text[..<end])
    }
}

extension HARRecordingStage.Bodies {
    /// Whether the content of a binary body of `mediaType` is recorded.
    func keepsContent(ofBinaryType mediaType: String) -> Bool {
        guard case .allIncludingBinary(let types) = self else { return false }
        let family = mediaType.split(separator: "/").first.map { $0 + "/*" } ?? ""
        return types.contains { kept in
            let kept = kept.lowercased()
            return kept == mediaType || kept == family || kept == "*/*"
        }
    }
}

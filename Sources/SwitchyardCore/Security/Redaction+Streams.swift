import Foundation

extension Redaction {
    /// Event-stream text (`text/event-stream`) with its secrets hidden, as
    /// ``redactBody(_:contentType:)`` shows it: each event's data — its `data:` lines joined with line
    /// breaks, as a reader of the stream gets it — redacted as a body of its own (a JSON member named
    /// like a secret, a secret `name=value` pair), then written back as `data:` lines; every other line
    /// (`event:`, `id:`, `retry:`, a comment) redacted as free text. Text cut short (the first chunk of
    /// a stream) is redacted as far as it goes.
    ///
    /// ```swift
    /// Redaction.default.redactEvents("event: login\ndata: {\"access_token\":\"abc\"}\n\n")
    /// // "event: login\ndata: {\"access_token\":\"<redacted>\"}\n\n"
    /// ```
    public func redactEvents(_ text: String) -> String {
        var output: [String] = []
        var data: [Substring] = []
        func flush() {
            guard !data.isEmpty else { return }
            let joined = data.joined(separator: "\n")
            data.removeAll()
            let redacted = redactBody(Data(joined.utf8), contentType: nil) ?? replacement
            output.append(contentsOf: redacted.split(separator: "\n", omittingEmptySubsequences: false).map { "data: " + String($0) })
        }
        for line in Self.lines(of: text) {
            if let value = Self.dataValue(of: line) {
                data.append(value)
                continue
            }
            flush()
            output.append(redactText(String(line)))
        }
        flush()
        return output.joined(separator: "\n")
    }

    /// Free text with the values of secret `name=value` pairs (``redactPairs(_:)``) and of the secret
    /// JSON members it quotes (``redactJSON(_:)``) hidden.
    func redactText(_ text: String) -> String {
        let pairs = redactPairs(text[...])
        return pairs.utf8.contains(UInt8(ascii: "\"")) ? redactJSON(Data(pairs.utf8)) : pairs
    }

    /// The lines of event-stream text, split at CR LF, LF or CR, as the stream's parser splits them.
    private static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    }

    /// The value of a `data` field line (after the colon and one optional space), or `nil` for any
    /// other line.
    private static func dataValue(of line: Substring) -> Substring? {
        guard line.hasPrefix("data") else { return nil }
        let rest = line.dropFirst(4)
        guard let colon = rest.first else { return rest }  // `data` alone: an empty data line.
        guard colon == ":" else { return nil }
        let value = rest.dropFirst()
        return value.first == " " ? value.dropFirst() : value
    }

    /// How the lines of an event stream's fields open.
    private static let eventFields = ["data:", "event:", "id:", "retry:"]

    /// Whether text opens like an event stream: its first line that is not empty or a comment is a
    /// `data`, `event`, `id` or `retry` field. Reads no further than that line's first bytes (and the
    /// comments before it), whatever the text's length.
    static func looksLikeEvents(_ text: String) -> Bool {
        let bytes = text.utf8
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                index = bytes.index(after: index)
                continue
            }
            guard byte == UInt8(ascii: ":") else {
                let line = bytes[index...]
                return eventFields.contains { line.starts(with: $0.utf8) }
            }
            while index < bytes.endIndex, bytes[index] != 0x0A, bytes[index] != 0x0D { index = bytes.index(after: index) }
        }
        return false
    }

    /// A JSON text sequence's body (RFC 7464: each record opens with the record separator, `0x1E`)
    /// with its separators turned into line breaks, so that it reads as JSON Lines; any other body as
    /// it is.
    static func separatingRecords(_ body: Data, type: String) -> Data {
        let separator: UInt8 = 0x1E
        guard body.first == separator || (type.contains("json-seq") && body.contains(separator)) else { return body }
        return Data(body.map { $0 == separator ? 0x0A : $0 })
    }
}

import Foundation

/// How a ``DecodedStream`` cuts its bytes and what it makes of each piece: one value per format.
@usableFromInline
struct StreamFormat<Element>: Sendable {
    /// The value a frame stands for, or `nil` when it stands for none (a blank line); the index is
    /// the position the value would have in the sequence.
    @usableFromInline
    typealias Interpret = @Sendable (ArraySlice<UInt8>, Int) throws(SwitchyardError) -> Element?

    @usableFromInline
    let delimiter: StreamFramer.Delimiter
    @usableFromInline
    let limit: Int
    /// What a frame is, for error messages: "a line of the stream".
    @usableFromInline
    let unit: String
    /// Whether a last line without a line end still counts.
    @usableFromInline
    let decodesLastLine: Bool
    @usableFromInline
    let interpret: Interpret
    /// Server-Sent Events, which are not cut into frames: the parser a decoding starts with (with the
    /// last event ID and reconnection time a reconnection carries over); set only when `Element` is
    /// ``ServerSentEvent`` (only `serverSentEvents` sets it: ``DecodedStream`` relies on that to hand
    /// the parser's events on as its elements without a cast). `nil` for the framed formats.
    @usableFromInline
    var events: ServerSentEventParser? = nil
}

extension StreamFormat<ServerSentEvent> {
    /// Lines ending in CR, LF or CRLF, interpreted as the event-stream format says, read in place.
    static func serverSentEvents(limit: Int, lastEventID: String? = nil, retry: Duration? = nil) -> Self {
        Self(
            delimiter: .lineFeed,
            limit: limit,
            unit: "a line of the event stream",
            decodesLastLine: false,
            interpret: { (_, _) throws(SwitchyardError) in nil },
            events: ServerSentEventParser(limit: limit, lastEventID: lastEventID, retry: retry)
        )
    }
}

extension StreamFormat<String> {
    /// Lines ending in LF or CRLF, as UTF-8 text.
    static func lines(limit: Int) -> Self {
        Self(delimiter: .lineFeed, limit: limit, unit: "a line of the stream", decodesLastLine: true) {
            (line, _) throws(SwitchyardError) in String(decoding: line, as: UTF8.self)
        }
    }
}

extension StreamFormat where Element: Decodable & Sendable {
    /// One JSON value per line; blank lines skipped.
    static func jsonLines(decoder: JSONDecoder, limit: Int) -> Self {
        Self(delimiter: .lineFeed, limit: limit, unit: "a line of the JSON Lines stream", decodesLastLine: true) {
            (line, index) throws(SwitchyardError) in
            guard line.contains(where: { !isJSONWhitespace($0) }) else { return nil }
            return try decode(line, decoder: decoder, subject: "value \(index) of the JSON Lines stream")
        }
    }

    /// RFC 7464 records.
    static func jsonSequence(decoder: JSONDecoder, limit: Int) -> Self {
        Self(delimiter: .recordSeparator, limit: limit, unit: "a record of the JSON text sequence", decodesLastLine: false) {
            (record, index) throws(SwitchyardError) in
            try decode(record, decoder: decoder, subject: "value \(index) of the JSON text sequence")
        }
    }

    private static func decode(_ bytes: ArraySlice<UInt8>, decoder: JSONDecoder, subject: String) throws(SwitchyardError) -> Element {
        let data = Data(bytes)
        do {
            return try decoder.decode(Element.self, from: data)
        } catch {
            throw SwitchyardError.streamElementUndecodable(error, subject: subject, output: Element.self, bytes: data)
        }
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

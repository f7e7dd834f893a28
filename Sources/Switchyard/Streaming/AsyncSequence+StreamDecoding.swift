public import Foundation

extension AsyncSequence where Element == Data {
    /// The Server-Sent Events (`text/event-stream`) these chunks carry, interpreted as the WHATWG
    /// HTML standard says.
    ///
    /// Lines end with CR, LF or CRLF; a UTF-8 byte order mark at the very start is skipped; lines
    /// starting with `:` are comments; an event is dispatched at a blank line when it has data, so
    /// an event the stream ends in the middle of is dropped. `id` persists from event to event
    /// (one containing NUL is ignored) and so does `retry` (ASCII digits only).
    ///
    /// ```swift
    /// for try await event in chunks.serverSentEvents() {
    ///     print(event.type, event.data)
    /// }
    /// ```
    ///
    /// - Parameter maximumSize: the longest line, and the most data one event may gather, in bytes;
    ///   more ends the sequence with ``SwitchyardError/Code/limitExceeded``. 1 MiB unless given.
    /// - Returns: the events, in order.
    public func serverSentEvents(maximumSize: Int = 1 << 20) -> DecodedStream<Self, ServerSentEvent> {
        DecodedStream(base: self, format: .serverSentEvents(limit: maximumSize))
    }

    /// The values of a JSON Lines stream (`application/jsonl`, `application/x-ndjson`): one JSON
    /// value per line, each decoded into `Value`.
    ///
    /// Lines end with LF or CRLF; blank lines are skipped; the last line needs no line end.
    ///
    /// - Parameters:
    ///   - type: the type of each value.
    ///   - decoder: the decoder to use; a default `JSONDecoder` unless given.
    ///   - maximumSize: the longest line, in bytes; a longer one ends the sequence with
    ///     ``SwitchyardError/Code/limitExceeded``. 1 MiB unless given.
    /// - Returns: the decoded values, in order. A line that does not decode ends the sequence with
    ///   ``SwitchyardError/Code/decoding`` naming the value's index, not its text.
    public func jsonLines<Value: Decodable & Sendable>(
        of type: Value.Type = Value.self,
        decoder: JSONDecoder = JSONDecoder(),
        maximumSize: Int = 1 << 20
    ) -> DecodedStream<Self, Value> {
        DecodedStream(base: self, format: .jsonLines(decoder: decoder, limit: maximumSize))
    }

    /// The values of a JSON text sequence (RFC 7464, `application/json-seq`), each decoded into `Value`.
    ///
    /// A record starts with RS (U+001E) and ends with the LF that completes its JSON text. A record
    /// cut short — by the next RS or the end of the stream — is skipped, as RFC 7464 §2.3 allows,
    /// so the sequence goes on at the next whole record; bytes outside records are ignored. A whole
    /// record that does not decode ends the sequence, as in JSON Lines.
    ///
    /// - Parameters:
    ///   - type: the type of each value.
    ///   - decoder: the decoder to use; a default `JSONDecoder` unless given.
    ///   - maximumSize: the longest record, in bytes; a longer one ends the sequence with
    ///     ``SwitchyardError/Code/limitExceeded``. 1 MiB unless given.
    /// - Returns: the decoded values, in order. A record that does not decode ends the sequence with
    ///   ``SwitchyardError/Code/decoding`` naming the value's index, not its text.
    public func jsonSequence<Value: Decodable & Sendable>(
        of type: Value.Type = Value.self,
        decoder: JSONDecoder = JSONDecoder(),
        maximumSize: Int = 1 << 20
    ) -> DecodedStream<Self, Value> {
        DecodedStream(base: self, format: .jsonSequence(decoder: decoder, limit: maximumSize))
    }

    /// The lines of text these chunks carry, decoded as UTF-8 (an invalid byte becomes U+FFFD).
    ///
    /// Lines end with LF or CRLF, neither kept; empty lines are kept; the last line needs no line end.
    ///
    /// - Parameter maximumSize: the longest line, in bytes; a longer one ends the sequence with
    ///   ``SwitchyardError/Code/limitExceeded``. 1 MiB unless given.
    /// - Returns: the lines, in order.
    public func lines(maximumSize: Int = 1 << 20) -> DecodedStream<Self, String> {
        DecodedStream(base: self, format: .lines(limit: maximumSize))
    }
}

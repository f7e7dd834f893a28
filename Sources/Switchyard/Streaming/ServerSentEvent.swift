public import Foundation

/// One event of a Server-Sent Events stream (`text/event-stream`), as the WHATWG HTML standard's
/// event-stream interpretation dispatches it.
///
/// Read a stream's events with `serverSentEvents(maximumSize:)` and decode an event's JSON ``data``
/// with ``decodeData(as:decoder:)``:
///
/// ```swift
/// for try await event in chunks.serverSentEvents() where event.type == "token" {
///     let token = try event.decodeData(as: Token.self)
///     print(token.text, terminator: "")
/// }
/// ```
public struct ServerSentEvent: Sendable, Hashable {
    /// The event's type: its `event` field, or `message` when it had none (or an empty one).
    public var type: String
    /// The event's `data` lines joined with LF (U+000A), without a final LF.
    public var data: String
    /// The last event ID the stream set (an `id` field of this event or of an earlier one), or `nil`
    /// when it set none or reset it with an empty `id`. A reconnecting client sends it as
    /// `Last-Event-ID`.
    public var id: String?
    /// The reconnection time the stream last asked for with a `retry` field (this event's or an
    /// earlier one's), or `nil` when it asked for none.
    public var retry: Duration?

    /// Creates an event (a test's stand-in for one the server sent).
    ///
    /// - Parameters:
    ///   - type: the event's type; `message` unless given.
    ///   - data: the event's data.
    ///   - id: the last event ID, if any.
    ///   - retry: the reconnection time the stream asked for, if any.
    public init(type: String = "message", data: String, id: String? = nil, retry: Duration? = nil) {
        self.type = type
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// Decodes the event's ``data`` as JSON into `Value`.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the decoder to use; a default `JSONDecoder` unless given.
    /// - Returns: the decoded value.
    /// - Throws: ``SwitchyardError/Code/decoding`` saying what does not fit, without the data itself.
    public func decodeData<Value: Decodable>(
        as type: Value.Type = Value.self,
        decoder: JSONDecoder = JSONDecoder()
    ) throws(SwitchyardError)
        -> Value
    {
        let bytes = Data(data.utf8)
        do {
            return try decoder.decode(Value.self, from: bytes)
        } catch {
            throw SwitchyardError.streamElementUndecodable(
                error,
                subject: "the data of a Server-Sent Event",
                output: Value.self,
                bytes: bytes
            )
        }
    }
}

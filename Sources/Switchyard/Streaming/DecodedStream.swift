public import Foundation

/// The values a stream of byte chunks decodes into, read as the chunks arrive: Server-Sent Events,
/// JSON Lines, JSON text sequences or lines of text.
///
/// Make one from any async sequence of `Data` chunks with `serverSentEvents(maximumSize:)`,
/// `jsonLines(of:decoder:maximumSize:)`, `jsonSequence(of:decoder:maximumSize:)` or
/// `lines(maximumSize:)`; the chunks themselves are the raw stream (see <doc:DecodeStreamedAnswers>).
///
/// Memory stays bounded: the stream holds at most one unfinished line, event or record (events also
/// the chunk being read, decoded one event at a time), and one longer than `maximumSize` ends the sequence
/// with ``SwitchyardError/Code/limitExceeded``. How the bytes are cut into chunks never changes what
/// the stream decodes to. Any error ends the sequence:
/// a ``SwitchyardError`` from the chunks is rethrown as it is, another error becomes
/// ``SwitchyardError/Code/transport`` (``SwitchyardError/Code/cancelled`` for a cancelled task).
public struct DecodedStream<Base: AsyncSequence, Element>: AsyncSequence where Base.Element == Data {
    /// The error that ends the sequence early.
    public typealias Failure = SwitchyardError

    @usableFromInline
    let base: Base
    @usableFromInline
    let format: StreamFormat<Element>

    /// Starts reading the chunks.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), format: format)
    }

    /// Reads chunks as the decoded values are asked for.
    public struct Iterator: AsyncIteratorProtocol {
        // Inlinable, so a caller's loop is specialized for its stream and element: generic, it
        // looked up type metadata for every element.
        @usableFromInline var base: Base.AsyncIterator
        @usableFromInline let format: StreamFormat<Element>
        @usableFromInline var framer: StreamFramer
        /// Server-Sent Events: the parser (`format.events`), which `readsEvents` tells are read, not frames.
        @usableFromInline var events: ServerSentEventParser
        @usableFromInline let readsEvents: Bool
        @usableFromInline var index = 0
        @usableFromInline var ended = false
        @usableFromInline var finished = false

        @inlinable
        init(base: Base.AsyncIterator, format: StreamFormat<Element>) {
            self.base = base
            self.format = format
            self.framer = StreamFramer(delimiter: format.delimiter, limit: format.limit, unit: format.unit)
            self.events = format.events ?? ServerSentEventParser(limit: format.limit)
            self.readsEvents = format.events != nil
            // `decoded()` hands the parser's events on as elements without a cast.
            precondition(!readsEvents || Element.self == ServerSentEvent.self, "only a stream of ServerSentEvent reads events")
        }

        /// The next value, or `nil` at the end of the stream.
        ///
        /// - Throws: ``SwitchyardError`` — the stream's own, a value too large, or one that does not decode.
        @inlinable
        public mutating func next() async throws(SwitchyardError) -> Element? {
            try await next(isolation: nil)
        }

        /// The next value, or `nil` at the end of the stream, read in the caller's isolation.
        ///
        /// - Throws: ``SwitchyardError`` — the stream's own, a value too large, or one that does not decode.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(SwitchyardError) -> Element? {
            guard !finished else { return nil }
            do throws(SwitchyardError) {
                while true {
                    if let element = try decoded() {
                        index += 1
                        return element
                    }
                    if ended {
                        finished = true
                        guard let last = try framer.finish(), format.decodesLastLine else { return nil }
                        return try format.interpret(last, index)
                    }
                    if Task.isCancelled { throw SwitchyardError.wrapping(CancellationError(), as: .cancelled) }
                    let chunk: Data?
                    do {
                        chunk = try await base.next(isolation: actor)
                    } catch {
                        throw SwitchyardError.wrapping(error, as: .transport)
                    }
                    if let chunk {
                        if readsEvents { events.append(chunk) } else { framer.append(chunk) }
                    } else {
                        ended = true
                    }
                }
            } catch {
                finished = true
                throw error
            }
        }

        /// The next value in the chunks read so far, or `nil` when the next chunk is needed.
        @inlinable
        mutating func decoded() throws(SwitchyardError) -> Element? {
            if readsEvents {
                // Only a stream of `ServerSentEvent`s reads events (`readsEvents`), so `Element` is
                // `ServerSentEvent` here (checked once, in `init`): the event is handed on as it is,
                // not cast (`as!` copied it and destroyed the original, ~160 instructions an event).
                guard let event = try events.next() else { return nil }
                return unsafeBitCast(event, to: Element.self)
            }
            while let frame = try framer.next() {
                if let element = try format.interpret(frame, index) { return element }
            }
            return nil
        }
    }
}

extension DecodedStream: Sendable where Base: Sendable {}

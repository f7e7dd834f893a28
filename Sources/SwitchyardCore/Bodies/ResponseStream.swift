public import Foundation
import Synchronization

/// The body of a streamed answer: its bytes as they arrive, chunk by chunk, read once.
///
/// A call whose endpoint's `Output` is `ResponseStream` returns as soon as the head has passed the
/// response stages; the body follows as this sequence. The transport reads ahead at most
/// ``CallContext/streamBufferLimit`` bytes: a slow consumer slows the reading from the connection,
/// so memory is bounded by the buffer, not by the stream's length.
///
/// The stream ends with ``SwitchyardError/Code/cancelled`` when the consuming task is cancelled or
/// the call is cancelled by id, tag, service, scope or all; leaving a `for try await` loop early
/// closes the connection too. A failure after the first byte ends it with the transport's typed
/// error. Only one iterator may read it.
///
/// ```swift
/// let stream = try await client.send(DynamicEndpoint<ResponseStream>(service: .chat, method: .get, path: "/answer")).value
/// for try await chunk in stream { print(chunk.count) }
/// ```
public struct ResponseStream: AsyncSequence, Sendable {
    /// A chunk of the body as the transport read it.
    public typealias Element = Data
    /// What ends the stream early.
    public typealias Failure = SwitchyardError

    /// The buffer between the transport's reading and the consumer.
    var source: StreamSource { owner.source }

    /// The chunk slots the stream's buffer holds, read or not; for tests of its bound.
    package var heldChunkSlots: Int { source.heldChunkSlots }
    /// Shared by this stream and every stream made from it: when the last of them goes away unread
    /// (a retried attempt, a refused status), the transport stops reading.
    let owner: StreamOwner
    /// What response stages wrapped around the chunks, innermost first.
    let transforms: [@Sendable (Data) throws(SwitchyardError) -> Data]

    /// The bytes read ahead by default: 1 MiB.
    public static let defaultBufferLimit = 1 << 20

    /// Creates a stream whose chunks `produce` writes; transports make one for a streamed call.
    ///
    /// `produce` runs at once in a task of its own. ``Writer/write(_:)`` suspends while the buffer
    /// holds `bufferLimit` bytes or more, and throws once the stream has ended (the consumer left or
    /// the call was cancelled), so the producer stops reading. The stream ends when `produce`
    /// returns, or with its error translated to a ``SwitchyardError``.
    ///
    /// - Parameters:
    ///   - control: the call's control: cancelling the call ends the stream.
    ///   - bufferLimit: the bytes read ahead of the consumer at most.
    ///   - translate: turns a producer's error into the call's typed error.
    ///   - produce: reads the body and writes its chunks.
    public init(
        control: CallControl,
        bufferLimit: Int = ResponseStream.defaultBufferLimit,
        translate: @escaping @Sendable (any Error) -> SwitchyardError = { SwitchyardError.wrapping($0) },
        produce: @escaping @Sendable (Writer) async throws -> Void
    ) {
        owner = StreamOwner(source: StreamSource(limit: Swift.max(bufferLimit, 1), control: control, translate: translate))
        transforms = []
        owner.source.start(produce)
    }

    /// A stream of the given chunks, for tests and stubs: it ends after the last one.
    public init(chunks: [Data]) {
        self.init(control: CallControl(), bufferLimit: Int.max) { writer in
            for chunk in chunks { try await writer.write(chunk) }
        }
    }

    private init(owner: StreamOwner, transforms: [@Sendable (Data) throws(SwitchyardError) -> Data]) {
        self.owner = owner
        self.transforms = transforms
    }

    /// This stream with each chunk passed through `transform` — how a response stage wraps a streamed
    /// body (count it, preview it, transform it). A thrown error ends the stream with it.
    public func map(_ transform: @escaping @Sendable (Data) throws(SwitchyardError) -> Data) -> ResponseStream {
        ResponseStream(owner: owner, transforms: transforms + [transform])
    }

    /// This stream, calling `handler` once when it ends: with `nil` after the last chunk, or with the
    /// error that ended it (a cancellation, a failed read, a consumer that left early).
    public func onEnd(_ handler: @escaping @Sendable (SwitchyardError?) -> Void) -> ResponseStream {
        source.addEndHandler(handler)
        return self
    }

    /// Ends the stream with `error` and stops the transport's reading; a consumer waiting for a chunk
    /// gets the error.
    public func cancel(_ error: SwitchyardError = SwitchyardError(code: .cancelled, message: "The stream was cancelled.")) {
        source.finish(.failure(error))
    }

    /// The first bytes of the stream, at most `limit` and what arrives `within` the given time, read and
    /// kept whole, then the stream ended: for an answer that is refused rather than handed to its caller.
    package func prefix(_ limit: Int, within: Duration) async -> Data {
        let timer = Task { [self] in
            try await Task.sleep(for: within)
            cancel(SwitchyardError(code: .timeout, message: "The refused answer's body did not arrive in time."))
        }
        defer { timer.cancel() }
        var kept = Data()
        var iterator = makeAsyncIterator()
        while kept.count < limit, let chunk = try? await iterator.next() {
            kept.append(chunk.prefix(limit - kept.count))
        }
        cancel()
        return kept
    }

    /// Creates the one iterator of this stream.
    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: self, reader: source.claim())
    }

    /// Reads the stream's chunks; leaving it before the end closes the connection.
    public struct Iterator: AsyncIteratorProtocol {
        let stream: ResponseStream
        let reader: StreamReader?

        /// The next chunk; `nil` at the end.
        public mutating func next() async throws(SwitchyardError) -> Data? {
            try await Self.read(stream, reader)
        }

        /// The next chunk; `nil` at the end.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(SwitchyardError) -> Data? {
            try await Self.read(stream, reader)
        }

        /// Reads the next chunk and passes it through the stream's transforms.
        private static func read(_ stream: ResponseStream, _ reader: StreamReader?) async throws(SwitchyardError) -> Data? {
            guard let reader else {
                throw SwitchyardError(code: .invalidRequest, message: "a response stream can be read only once")
            }
            guard var chunk = try await reader.source.next() else { return nil }
            for transform in stream.transforms {
                do {
                    chunk = try transform(chunk)
                } catch {
                    stream.source.finish(.failure(error))
                    throw error
                }
            }
            return chunk
        }
    }

    /// Where a transport writes the chunks of a streamed body.
    public struct Writer: Sendable {
        let source: StreamSource

        /// Hands one chunk to the consumer; suspends while the buffer is full.
        ///
        /// - Throws: `CancellationError` once the stream has ended (the consumer left, the call was
        ///   cancelled): stop reading.
        public func write(_ chunk: Data) async throws {
            guard !chunk.isEmpty else { return }
            try await source.write(chunk)
        }

        /// Hands one chunk to the consumer without waiting, for a producer that must not suspend (a
        /// transport's callback on its event loop): `true` while the buffer has room for more,
        /// `false` when it is full — then ``waitForRoom()`` before offering the next chunk.
        ///
        /// - Throws: `CancellationError` once the stream has ended: stop reading.
        package func offer(_ chunk: Data) throws -> Bool {
            guard !chunk.isEmpty else { return true }
            return try source.offer(chunk)
        }

        /// Waits until the buffer has room, the consumer having read.
        ///
        /// - Throws: `CancellationError` once the stream has ended, or the waiting task is cancelled.
        package func waitForRoom() async throws {
            try await source.waitForRoom()
        }
    }
}

extension ResponseStream {
    /// The key a call sets its read-ahead buffer under, in bytes:
    /// `options.setContextValue(256 << 10, for: ResponseStream.BufferLimit.self)`.
    public enum BufferLimit: CallContextKey {
        /// The bytes read ahead at most.
        public typealias Value = Int
    }
}

extension CallContext {
    /// For a streamed call, the bytes the transport reads ahead of the consumer at most; `nil` for a
    /// call whose body is collected whole. A transport that sees it set answers with a
    /// ``ResponseStream`` body (``Response/Body/stream(_:)``).
    public var streamBufferLimit: Int? {
        get { self[ResponseStream.BufferLimit.self] }
        set { self[ResponseStream.BufferLimit.self] = newValue }
    }
}

/// Ends a stream nobody started reading once every value of it has gone away.
final class StreamOwner: Sendable {
    let source: StreamSource

    init(source: StreamSource) {
        self.source = source
    }

    deinit {
        source.abandon()
    }
}

/// Ends the stream when the one iterator reading it goes away before the end.
final class StreamReader: Sendable {
    let source: StreamSource

    init(source: StreamSource) {
        self.source = source
    }

    deinit {
        source.finish(.failure(SwitchyardError(code: .cancelled, message: "The stream's reader stopped reading.")))
    }
}

import Foundation
import SwitchyardSupport
import Synchronization

/// The bounded buffer behind a ``ResponseStream``: a producer task writes chunks, one consumer reads
/// them, and the producer waits while the buffer is full.
///
/// The stream *ends* for the producer when it returns or fails; it *closes* when the consumer has
/// read the last chunk — and after it, the producer's failure — or at once on a cancellation (of the
/// call, of the reading task, or a consumer that left). So a failed read loses none of the chunks
/// read before it. The end handlers run when it closes, so a call stays in flight until its
/// consumer is done.
final class StreamSource: Sendable {
    private struct State {
        var chunks = ChunkQueue()
        var end: Result<Void, SwitchyardError>?
        var closed = false
        var consumer: CheckedContinuation<Data?, any Error>?
        var producer: CheckedContinuation<Void, any Error>?
        var task: Task<Void, Never>?
        var claimed = false
        var endHandlers: [@Sendable (SwitchyardError?) -> Void] = []
        var controlRegistration: Int?

        /// Marks the stream closed and takes what its closing runs.
        mutating func close() -> Closing {
            closed = true
            defer {
                endHandlers = []
                controlRegistration = nil
            }
            return Closing(endHandlers: endHandlers, controlRegistration: controlRegistration)
        }
    }

    /// What closing the stream runs, taken out of the state under the lock.
    private struct Closing {
        let endHandlers: [@Sendable (SwitchyardError?) -> Void]
        let controlRegistration: Int?
    }

    private let state = Mutex(State())
    private let limit: Int
    private let control: CallControl
    private let translate: @Sendable (any Error) -> SwitchyardError

    init(limit: Int, control: CallControl, translate: @escaping @Sendable (any Error) -> SwitchyardError) {
        self.limit = limit
        self.control = control
        self.translate = translate
    }

    /// Starts the producer, and ends the stream when the call is cancelled.
    func start(_ produce: @escaping @Sendable (ResponseStream.Writer) async throws -> Void) {
        let writer = ResponseStream.Writer(source: self)
        let task = Task { [self] in
            do {
                try await produce(writer)
                finish(.success(()))
            } catch {
                fail(translate(error))
            }
        }
        let registration = control.register { [weak self] in
            guard let self else { return }
            finish(.failure(callCancellation))
        }
        let (closed, failed): (Bool, Bool) = state.withLock { state in
            guard state.closed else {
                state.controlRegistration = registration
                state.task = task
                return (false, false)
            }
            if case .failure = state.end { return (true, true) }
            return (true, false)
        }
        if closed, let registration { control.unregister(registration) }
        if failed { task.cancel() }
        if registration == nil {
            finish(.failure(callCancellation))
        }
    }

    /// The error a cancellation of the call ends the stream with.
    private var callCancellation: SwitchyardError {
        control.cancellationError ?? SwitchyardError(code: .cancelled, message: "The call was cancelled.")
    }

    /// The reader of the one iterator; `nil` for every later one.
    func claim() -> StreamReader? {
        let first = state.withLock { state in
            defer { state.claimed = true }
            return !state.claimed
        }
        return first ? StreamReader(source: self) : nil
    }

    /// Ends the stream, cancelled, unless an iterator has claimed it: every value of it is gone.
    func abandon() {
        guard !state.withLock({ $0.claimed }) else { return }
        finish(.failure(SwitchyardError(code: .cancelled, message: "The stream was dropped unread.")))
    }

    /// The chunk slots the buffer holds, read or not: what a test checks stays bounded.
    var heldChunkSlots: Int { state.withLock { $0.chunks.slotCount } }

    /// Registers a handler for the close; runs it at once when the stream has closed.
    func addEndHandler(_ handler: @escaping @Sendable (SwitchyardError?) -> Void) {
        let closed: Result<Void, SwitchyardError>?? = state.withLock { state in
            guard state.closed else {
                state.endHandlers.append(handler)
                return .none
            }
            return .some(state.end)
        }
        if case .some(let end) = closed { handler(end.flatMap(Self.error(of:))) }
    }

    /// Buffers a chunk or hands it to a waiting consumer; waits while the buffer is full, until the
    /// consumer reads, the stream ends or the writing task is cancelled.
    func write(_ chunk: Data) async throws {
        try Task.checkCancellation()
        try await withTaskCancellationHandler {
            try await buffer(chunk)
        } onCancel: {
            // A producer of a transport of the user's own may be a task the stream does not cancel.
            state.withLock { state in
                defer { state.producer = nil }
                return state.producer
            }?.resume(throwing: CancellationError())
        }
    }

    /// ``write(_:)`` without the cancellation handler.
    private func buffer(_ chunk: Data) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            enum Step {
                case handed(CheckedContinuation<Data?, any Error>)
                case buffered
                case wait
                case ended
            }
            let step: Step = state.withLock { state in
                guard state.end == nil, !state.closed else { return .ended }
                if let consumer = state.consumer {
                    state.consumer = nil
                    return .handed(consumer)
                }
                state.chunks.append(chunk)
                guard state.chunks.byteCount >= limit else { return .buffered }
                // Checked under the lock the cancellation handler takes: either it finds the
                // producer stored, or the producer sees the cancellation here.
                guard !Task.isCancelled else { return .ended }
                precondition(state.producer == nil, "a response stream has one writer at a time")
                state.producer = continuation
                return .wait
            }
            switch step {
            case .handed(let consumer):
                consumer.resume(returning: chunk)
                continuation.resume()
            case .buffered: continuation.resume()
            case .wait: break
            case .ended: continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// Buffers a chunk or hands it to a waiting consumer, without waiting: whether the buffer has
    /// room for more.
    func offer(_ chunk: Data) throws -> Bool {
        let (room, consumer): (Bool?, CheckedContinuation<Data?, any Error>?) = state.withLock { state in
            guard state.end == nil, !state.closed else { return (nil, nil) }
            if let consumer = state.consumer {
                state.consumer = nil
                return (true, consumer)
            }
            state.chunks.append(chunk)
            return (state.chunks.byteCount < limit, nil)
        }
        guard let room else { throw CancellationError() }
        consumer?.resume(returning: chunk)
        return room
    }

    /// Waits while the buffer is full, until the consumer reads, the stream ends or the waiting task
    /// is cancelled.
    func waitForRoom() async throws {
        try Task.checkCancellation()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Step {
                    case room
                    case wait
                    case ended
                }
                let step: Step = state.withLock { state in
                    guard state.end == nil, !state.closed, !Task.isCancelled else { return .ended }
                    guard state.chunks.byteCount >= limit else { return .room }
                    precondition(state.producer == nil, "a response stream has one writer at a time")
                    state.producer = continuation
                    return .wait
                }
                switch step {
                case .room: continuation.resume()
                case .wait: break
                case .ended: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.producer = nil }
                return state.producer
            }?.resume(throwing: CancellationError())
        }
    }

    /// The next chunk: a buffered one, or the next one written; `nil` at the end.
    func next() async throws(SwitchyardError) -> Data? {
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                    enum Step {
                        case chunk(Data, resume: CheckedContinuation<Void, any Error>?)
                        case finished(Closing?)
                        case failed(SwitchyardError, Closing?)
                        case wait
                    }
                    let step: Step = state.withLock { state in
                        if let chunk = state.chunks.popFirst() {
                            var producer: CheckedContinuation<Void, any Error>?
                            if state.chunks.byteCount < limit {
                                producer = state.producer
                                state.producer = nil
                            }
                            return .chunk(chunk, resume: producer)
                        }
                        switch state.end {
                        case .success?: return .finished(state.closed ? nil : state.close())
                        case .failure(let error)?: return .failed(error, state.closed ? nil : state.close())
                        case nil:
                            precondition(state.consumer == nil, "a response stream has one reader at a time")
                            state.consumer = continuation
                            return .wait
                        }
                    }
                    switch step {
                    case .chunk(let chunk, let producer):
                        producer?.resume()
                        continuation.resume(returning: chunk)
                    case .finished(let closing):
                        continuation.resume(returning: nil)
                        closing.map { run($0, error: nil) }
                    case .failed(let error, let closing):
                        continuation.resume(throwing: error)
                        closing.map { run($0, error: error) }
                    case .wait: break
                    }
                }
            } onCancel: {
                finish(.failure(SwitchyardError(code: .cancelled, message: "The task reading the stream was cancelled.")))
            }
        } catch let error as SwitchyardError {
            throw error
        } catch {
            throw SwitchyardError.wrapping(error)
        }
    }

    /// Ends the stream with the producer's failure: like its success, the stream closes when the
    /// consumer has read what is buffered, and the consumer then gets the failure. A cancellation
    /// is not waited for: it closes the stream at once.
    private func fail(_ error: SwitchyardError) {
        guard error.code != .cancelled else { return finish(.failure(error)) }
        let taken: (CheckedContinuation<Data?, any Error>, Closing)? = state.withLock { state in
            guard !state.closed, state.end == nil else { return nil }
            state.end = .failure(error)
            // A consumer waits only on an empty buffer: it has read everything.
            guard let consumer = state.consumer else { return nil }
            state.consumer = nil
            return (consumer, state.close())
        }
        guard let (consumer, closing) = taken else { return }
        consumer.resume(throwing: error)
        run(closing, error: error)
    }

    /// Ends the stream. The producer's success closes it when the consumer has read the rest (at once
    /// when the consumer waits on an empty buffer); a failure closes it at once, drops what is
    /// buffered, wakes the consumer and the producer and stops the producer's task. Once closed,
    /// nothing changes it.
    func finish(_ end: Result<Void, SwitchyardError>) {
        let taken: Waiters? = state.withLock { state in
            guard !state.closed else { return nil }
            switch end {
            case .success:
                guard state.end == nil else { return nil }
                state.end = end
                // A consumer waits only on an empty buffer: it has read everything.
                guard let consumer = state.consumer else { return nil }
                state.consumer = nil
                return Waiters(consumer: consumer, producer: nil, task: nil, closing: state.close())
            case .failure:
                state.end = end
                state.chunks.removeAll()
                defer {
                    state.consumer = nil
                    state.producer = nil
                    state.task = nil
                }
                return Waiters(consumer: state.consumer, producer: state.producer, task: state.task, closing: state.close())
            }
        }
        guard let taken else { return }
        switch end {
        case .success: taken.consumer?.resume(returning: nil)
        case .failure(let error):
            taken.consumer?.resume(throwing: error)
            taken.task?.cancel()
        }
        taken.producer?.resume(throwing: CancellationError())
        run(taken.closing, error: Self.error(of: end))
    }

    /// Runs what closing the stream runs: leaves the call's control and calls the end handlers.
    private func run(_ closing: Closing, error: SwitchyardError?) {
        if let registration = closing.controlRegistration { control.unregister(registration) }
        for handler in closing.endHandlers { handler(error) }
    }

    /// What waits on the stream, taken out of the state when it ends.
    private struct Waiters {
        let consumer: CheckedContinuation<Data?, any Error>?
        let producer: CheckedContinuation<Void, any Error>?
        let task: Task<Void, Never>?
        let closing: Closing
    }

    private static func error(of end: Result<Void, SwitchyardError>) -> SwitchyardError? {
        if case .failure(let error) = end { return error }
        return nil
    }
}

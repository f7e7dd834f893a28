import Foundation
import Synchronization

/// The bounded buffer behind a ``ResponseStream``: a producer task writes chunks, one consumer reads
/// them, and the producer waits while the buffer is full.
final class StreamSource: Sendable {
    private struct State {
        var chunks: [Data] = []
        var head = 0
        var buffered = 0
        var end: Result<Void, SwitchyardError>?
        var consumer: CheckedContinuation<Data?, any Error>?
        var producer: CheckedContinuation<Void, any Error>?
        var task: Task<Void, Never>?
        var claimed = false
        var endHandlers: [@Sendable (SwitchyardError?) -> Void] = []
        var controlRegistration: Int?
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
                finish(.failure(translate(error)))
            }
        }
        let registration = control.register { [weak self] in
            guard let self else { return }
            let reason = control.cancellationError ?? SwitchyardError(code: .cancelled, message: "The call was cancelled.")
            finish(.failure(reason))
        }
        let ended = state.withLock { state in
            state.controlRegistration = registration
            if state.end == nil { state.task = task }
            return state.end != nil
        }
        if ended { task.cancel() }
        if registration == nil {
            finish(.failure(control.cancellationError ?? SwitchyardError(code: .cancelled, message: "The call was cancelled.")))
        }
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

    /// Registers a handler for the end; runs it at once when the stream has ended.
    func addEndHandler(_ handler: @escaping @Sendable (SwitchyardError?) -> Void) {
        let ended: Result<Void, SwitchyardError>? = state.withLock { state in
            if state.end == nil { state.endHandlers.append(handler) }
            return state.end
        }
        if let ended { handler(Self.error(of: ended)) }
    }

    /// Buffers a chunk or hands it to a waiting consumer; waits while the buffer is full.
    func write(_ chunk: Data) async throws {
        try Task.checkCancellation()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            enum Step {
                case handed(CheckedContinuation<Data?, any Error>)
                case buffered
                case wait
                case ended
            }
            let step: Step = state.withLock { state in
                guard state.end == nil else { return .ended }
                if let consumer = state.consumer {
                    state.consumer = nil
                    return .handed(consumer)
                }
                state.chunks.append(chunk)
                state.buffered += chunk.count
                guard state.buffered >= limit else { return .buffered }
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

    /// The next chunk: a buffered one, or the next one written; `nil` at the end.
    func next() async throws(SwitchyardError) -> Data? {
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                    enum Step {
                        case chunk(Data, resume: CheckedContinuation<Void, any Error>?)
                        case ended(Result<Void, SwitchyardError>)
                        case wait
                    }
                    let step: Step = state.withLock { state in
                        if state.head < state.chunks.count {
                            let chunk = state.chunks[state.head]
                            state.head += 1
                            state.buffered -= chunk.count
                            if state.head == state.chunks.count {
                                state.chunks.removeAll(keepingCapacity: true)
                                state.head = 0
                            }
                            var producer: CheckedContinuation<Void, any Error>?
                            if state.buffered < limit {
                                producer = state.producer
                                state.producer = nil
                            }
                            return .chunk(chunk, resume: producer)
                        }
                        if let end = state.end { return .ended(end) }
                        state.consumer = continuation
                        return .wait
                    }
                    switch step {
                    case .chunk(let chunk, let producer):
                        producer?.resume()
                        continuation.resume(returning: chunk)
                    case .ended(.success): continuation.resume(returning: nil)
                    case .ended(.failure(let error)): continuation.resume(throwing: error)
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

    /// Ends the stream (the first end wins): wakes the consumer and the producer, stops the producer's
    /// task when it failed or was cancelled, and runs the end handlers.
    func finish(_ end: Result<Void, SwitchyardError>) {
        let taken: Waiters? = state.withLock { state in
            guard state.end == nil else { return nil }
            state.end = end
            // A failure drops what is buffered: the consumer sees the error next, not stale chunks.
            if case .failure = end {
                state.chunks = []
                state.head = 0
                state.buffered = 0
            }
            defer {
                state.consumer = nil
                state.producer = nil
                state.task = nil
                state.endHandlers = []
                state.controlRegistration = nil
            }
            return Waiters(
                consumer: state.consumer,
                producer: state.producer,
                task: state.task,
                endHandlers: state.endHandlers,
                controlRegistration: state.controlRegistration
            )
        }
        guard let taken else { return }
        if let registration = taken.controlRegistration { control.unregister(registration) }
        switch end {
        case .success: taken.consumer?.resume(returning: nil)
        case .failure(let error):
            taken.consumer?.resume(throwing: error)
            taken.task?.cancel()
        }
        taken.producer?.resume(throwing: CancellationError())
        for handler in taken.endHandlers { handler(Self.error(of: end)) }
    }

    /// What waits on the stream, taken out of the state when it ends.
    private struct Waiters {
        let consumer: CheckedContinuation<Data?, any Error>?
        let producer: CheckedContinuation<Void, any Error>?
        let task: Task<Void, Never>?
        let endHandlers: [@Sendable (SwitchyardError?) -> Void]
        let controlRegistration: Int?
    }

    private static func error(of end: Result<Void, SwitchyardError>) -> SwitchyardError? {
        if case .failure(let error) = end { return error }
        return nil
    }
}

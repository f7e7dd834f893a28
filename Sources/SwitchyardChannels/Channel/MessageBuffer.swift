import Switchyard
import Synchronization

/// The messages received and not yet read, at most `capacity` of them: the connection that delivers
/// one more waits until the reader takes one, and while it waits it does not read the socket.
final class MessageBuffer: Sendable {
    private struct State {
        var items: [ChannelMessage] = []
        var head = 0
        var ending: SwitchyardError??
        var reader: CheckedContinuation<ChannelMessage?, any Error>?
        var writers: [CheckedContinuation<Bool, Never>] = []
        var peak = 0
        var count: Int { items.count - head }

        /// The oldest waiting message, if any; its room goes to the first waiting writer.
        mutating func take() -> ChannelMessage? {
            guard count > 0 else { return nil }
            let message = items[head]
            head += 1
            if head > 64, head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            if !writers.isEmpty { writers.removeFirst().resume(returning: true) }
            return message
        }
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The most messages that ever waited at once.
    var peak: Int { state.withLock { $0.peak } }

    /// Hands `message` to the reader, waiting while the buffer is full; `false` once the buffer has
    /// ended or `release` let the writer go, and the message is dropped.
    func deliver(_ message: ChannelMessage) async -> Bool {
        while true {
            enum Step {
                case done(Bool)
                case wait
            }
            let step: Step = state.withLock { state in
                if state.ending != nil { return .done(false) }
                if let reader = state.reader {
                    state.reader = nil
                    reader.resume(returning: message)
                    return .done(true)
                }
                guard state.count < capacity else { return .wait }
                state.items.append(message)
                state.peak = max(state.peak, state.count)
                return .done(true)
            }
            switch step {
            case .done(let delivered): return delivered
            case .wait:
                let goOn = await withCheckedContinuation { continuation in
                    let resumeNow = state.withLock { state in
                        if state.ending != nil || state.count < capacity { return true }
                        state.writers.append(continuation)
                        return false
                    }
                    if resumeNow { continuation.resume(returning: true) }
                }
                if !goOn { return false }
            }
        }
    }

    /// Lets every waiting writer go without delivering: a connection that is closing.
    func release() {
        let writers = state.withLock { state in
            defer { state.writers = [] }
            return state.writers
        }
        for writer in writers { writer.resume(returning: false) }
    }

    /// The next message; `nil` once the buffer ended cleanly and is empty; the ending error once
    /// empty, if it ended with one.
    func next() async throws(SwitchyardError) -> ChannelMessage? {
        enum Step {
            case message(ChannelMessage)
            case end(SwitchyardError?)
            case wait
        }
        let step: Step = state.withLock { state in
            if let message = state.take() { return .message(message) }
            if let ending = state.ending { return .end(ending) }
            return .wait
        }
        switch step {
        case .message(let message): return message
        case .end(let error):
            if let error { throw error }
            return nil
        case .wait:
            do {
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        let now: Result<ChannelMessage?, SwitchyardError>? = state.withLock { state in
                            // A message delivered since the buffer was last looked at is taken now:
                            // the reader waits only while the buffer is empty, or no writer wakes it.
                            if let message = state.take() { return .success(message) }
                            if let ending = state.ending { return ending.map { .failure($0) } ?? .success(nil) }
                            if Task.isCancelled {
                                return .failure(SwitchyardError(code: .cancelled, message: "reading the channel was cancelled"))
                            }
                            state.reader = continuation
                            // A writer may wait for room that a reader now makes by waiting.
                            if !state.writers.isEmpty { state.writers.removeFirst().resume(returning: true) }
                            return nil
                        }
                        if let now { continuation.resume(with: now) }
                    }
                } onCancel: {
                    let reader = state.withLock { state in
                        defer { state.reader = nil }
                        return state.reader
                    }
                    reader?.resume(throwing: SwitchyardError(code: .cancelled, message: "reading the channel was cancelled"))
                }
            } catch {
                throw SwitchyardError.wrapping(error)
            }
        }
    }

    /// Ends the buffer: the reader gets what waits, then `error` (or the end); writers are let go.
    func finish(_ error: SwitchyardError?) {
        let (reader, writers) = state.withLock {
            state -> (CheckedContinuation<ChannelMessage?, any Error>?, [CheckedContinuation<Bool, Never>]) in
            guard state.ending == nil else { return (nil, []) }
            state.ending = .some(error)
            defer {
                state.reader = nil
                state.writers = []
            }
            return (state.count == 0 ? state.reader : nil, state.writers)
        }
        if let reader {
            if let error { reader.resume(throwing: error) } else { reader.resume(returning: nil) }
        }
        for writer in writers { writer.resume(returning: false) }
    }
}

import Foundation
import HTTPTypes
import Synchronization

/// The events ``APIClient/events(_:options:reconnect:maximumSize:sleep:)`` returns: the Server-Sent
/// Events of one connection after another, reconnecting through the pipeline with `Last-Event-ID`
/// while the policy allows.
struct EventStream<E: Endpoint>: AsyncSequence, Sendable where E.Output == ResponseStream {
    typealias Element = ServerSentEvent
    typealias Failure = SwitchyardError

    let client: APIClient
    let endpoint: E
    let options: CallOptions?
    let policy: RetryPolicy?
    let maximumSize: Int
    let sleep: @Sendable (Duration) async throws -> Void
    /// The first connection's body; `nil` when it answered `204`.
    let first: ResponseStream?
    let life: Life

    func makeAsyncIterator() -> Iterator {
        let opened = first.map { life.open($0, lastEventID: nil, retry: nil, limit: maximumSize) }
        return Iterator(stream: self, current: opened)
    }

    /// Reads one connection's events, then reconnects.
    struct Iterator: AsyncIteratorProtocol {
        let stream: EventStream
        var current: DecodedStream<ResponseStream, ServerSentEvent>.Iterator?
        var lastEventID: String?
        var retry: Duration?
        /// Reconnections since the last event.
        var failures = 0
        var finished = false

        init(stream: EventStream, current: DecodedStream<ResponseStream, ServerSentEvent>.Iterator?) {
            self.stream = stream
            self.current = current
            self.finished = current == nil
            if finished { stream.life.end() }
        }

        /// The next event; `nil` once the events have ended.
        mutating func next() async throws(SwitchyardError) -> ServerSentEvent? {
            try await next(isolation: nil)
        }

        /// The next event, read in the caller's isolation; `nil` once the events have ended.
        mutating func next(isolation actor: isolated (any Actor)?) async throws(SwitchyardError) -> ServerSentEvent? {
            guard !finished else { return nil }
            do throws(SwitchyardError) {
                while true {
                    let ending: SwitchyardError?
                    do throws(SwitchyardError) {
                        if let event = try await current?.next(isolation: actor) {
                            lastEventID = event.id
                            retry = event.retry
                            failures = 0
                            return event
                        }
                        ending = nil
                    } catch {
                        ending = error
                    }
                    current = nil
                    guard try await reconnect(after: ending, isolation: actor) else {
                        finished = true
                        stream.life.end()
                        return nil
                    }
                }
            } catch {
                finished = true
                stream.life.end()
                throw error
            }
        }

        /// Waits and opens the next connection after one that ended with `ending` (`nil`: cleanly);
        /// `false` when the events end cleanly (no policy, or a `204`).
        private mutating func reconnect(
            after ending: SwitchyardError?,
            isolation actor: isolated (any Actor)?
        ) async throws(SwitchyardError) -> Bool {
            var ending = ending
            while true {
                if let cancelled = stream.life.control.cancellationError { throw cancelled }
                if let ending, ending.code != .transport, ending.code != .timeout { throw ending }
                guard let policy = stream.policy else {
                    if let ending { throw ending }
                    return false
                }
                guard failures + 1 < policy.maxAttempts else {
                    if let ending { throw ending }
                    return false
                }
                failures += 1
                try await wait(policy, isolation: actor)
                var options = stream.options ?? CallOptions()
                if let lastEventID { options.headerFields[Self.lastEventIDField] = lastEventID }
                let (client, endpoint, sending) = (stream.client, stream.endpoint, options)
                let result: CallResult<ResponseStream>
                do {
                    result = try await stream.life.control.runCancellable { try await client.send(endpoint, options: sending) }
                } catch {
                    let failure = SwitchyardError.wrapping(error)
                    if let cancelled = stream.life.control.cancellationError { throw cancelled }
                    ending = failure
                    continue
                }
                if result.status == .noContent {
                    result.value.cancel()
                    return false
                }
                current = stream.life.open(result.value, lastEventID: lastEventID, retry: retry, limit: stream.maximumSize)
                return true
            }
        }

        /// Waits the stream's `retry` (no less than the policy's base delay), or the policy's backoff; a
        /// cancellation ends the wait.
        private func wait(_ policy: RetryPolicy, isolation actor: isolated (any Actor)?) async throws(SwitchyardError) {
            // The floor keeps a server that sends `retry: 0` and an event before each close from making
            // the client reconnect in a tight loop: an event resets the count of reconnections in a row.
            let delay =
                retry.map { Swift.min(Swift.max($0, policy.baseDelay), policy.maxDelay) }
                ?? Self.jittered(policy.backoff(beforeRetry: failures), policy)
            let sleep = stream.sleep
            do {
                try await stream.life.control.runCancellable { try await sleep(delay) }
            } catch {
                throw stream.life.control.cancellationError
                    ?? SwitchyardError(
                        code: .cancelled,
                        message: "the event stream was cancelled while waiting to reconnect",
                        underlyingError: error
                    )
            }
            if let cancelled = stream.life.control.cancellationError { throw cancelled }
        }

        private static func jittered(_ delay: Duration, _ policy: RetryPolicy) -> Duration {
            guard policy.jitter > 0, delay > .zero else { return delay }
            return delay * (1 - policy.jitter * Double.random(in: 0...1))
        }

        /// `Last-Event-ID`, which a reconnection sends.
        static var lastEventIDField: HTTPField.Name { HTTPField.Name("Last-Event-ID")! }
    }

    /// The event stream's own entry among the client's calls in flight: its id and control, which
    /// cancel the open connection and end the events; taken out of flight when the events end or
    /// every copy of the stream is gone.
    final class Life: Sendable {
        let id = RequestID.next()
        let control = CallControl()
        private let tracker: CallTracker
        private let connection = Mutex<ResponseStream?>(nil)

        init(tracker: CallTracker) {
            self.tracker = tracker
            // Only the tracker cancels the control, and only while the stream is in flight: the
            // handler needs no unregistering.
            _ = control.register { [weak self] in self?.cancelConnection() }
        }

        /// The events of a connection's body, from the given last event ID and reconnection time on;
        /// a cancellation of the event stream cancels the body.
        func open(
            _ body: ResponseStream,
            lastEventID: String?,
            retry: Duration?,
            limit: Int
        ) -> DecodedStream<ResponseStream, ServerSentEvent>.Iterator {
            connection.withLock { $0 = body }
            if let cancelled = control.cancellationError { body.cancel(cancelled) }
            return DecodedStream(base: body, format: .serverSentEvents(limit: limit, lastEventID: lastEventID, retry: retry))
                .makeAsyncIterator()
        }

        /// Ends the open connection with the event stream's cancellation.
        private func cancelConnection() {
            let open = connection.withLock { $0 }
            open?.cancel(control.cancellationError ?? SwitchyardError(code: .cancelled, message: "The event stream was cancelled."))
        }

        /// Takes the event stream out of flight.
        func end() {
            _ = tracker.remove(id)
            connection.withLock { $0 = nil }
        }

        deinit {
            _ = tracker.remove(id)
        }
    }
}

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
    /// Whether the first connection's answer came from the service's own origin, so that the event
    /// IDs it sets may be sent back (``ownsEventIDs(_:)``).
    let firstOwnsEventIDs: Bool
    let life: Life

    /// The longest event ID, in UTF-8 bytes, that a reconnection sends back as `Last-Event-ID`: 1 KiB,
    /// room for any cursor or id a service uses. A longer one is not kept: the reconnection sends the
    /// last ID that fit (the server replays from there) rather than a field a server chose to bloat.
    static var maximumLastEventIDLength: Int { 1024 }

    /// Whether `result`'s events may choose the `Last-Event-ID` sent back to the service: its answer
    /// came from the origin the call was sent to — no redirect, or one that stayed on that origin. A
    /// foreign origin an allowed redirect reached never chooses what the service is told.
    static func ownsEventIDs(_ result: CallResult<ResponseStream>) -> Bool {
        guard let landed = result.finalURL else { return true }
        guard let sent = result.sentRequest?.url else { return false }
        return landed.scheme?.lowercased() == sent.scheme?.lowercased() && landed.host?.lowercased() == sent.host?.lowercased()
            && landed.port == sent.port
    }

    func makeAsyncIterator() -> Iterator {
        let opened = first.map { life.open($0, lastEventID: nil, retry: nil, limit: maximumSize) }
        return Iterator(stream: self, current: opened, ownsEventIDs: firstOwnsEventIDs)
    }

    /// Reads one connection's events, then reconnects.
    struct Iterator: AsyncIteratorProtocol {
        let stream: EventStream
        var current: DecodedStream<ResponseStream, ServerSentEvent>.Iterator?
        /// The `Last-Event-ID` a reconnection sends: the last ID an event of the service's own origin
        /// set, if it fit ``EventStream/maximumLastEventIDLength``.
        var lastEventID: String?
        /// Whether the open connection's events may set ``lastEventID``.
        var ownsEventIDs: Bool
        var retry: Duration?
        /// Reconnections since the last event.
        var failures = 0
        var finished = false

        init(stream: EventStream, current: DecodedStream<ResponseStream, ServerSentEvent>.Iterator?, ownsEventIDs: Bool) {
            self.stream = stream
            self.current = current
            self.ownsEventIDs = ownsEventIDs
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
                            if ownsEventIDs, (event.id?.utf8.count ?? 0) <= EventStream.maximumLastEventIDLength {
                                lastEventID = event.id
                            }
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
                ownsEventIDs = EventStream.ownsEventIDs(result)
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

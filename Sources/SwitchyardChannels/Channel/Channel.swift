public import Foundation
import Logging
public import Switchyard
import Synchronization

/// A two-way WebSocket channel of a service, opened through its pipeline by
/// `APIClient.channel(_:options:configuration:)`.
///
/// Messages arrive in ``messages`` (read by one task) and leave with ``send(_:)`` or
/// ``send(json:encoder:)``; when the service has an encryption stage, each message is sealed with its
/// keys both ways (`Docs/WireFormat.md`, *Channel messages*). The channel is in flight with the
/// client like a call, under ``requestID`` with its call's tags, service and account: cancelling any
/// of them, or ending the account's session, closes it with close code 1001. A channel lives until it
/// is closed, cancelled, or its server ends it: close it when done.
///
/// ```swift
/// let channel = try await client.channel(Quotes(), options: CallOptions(tags: ["screen"]))
/// try await channel.send(json: Subscribe(symbol: "ACME"))
/// for try await message in channel.messages {
///     let quote = try message.decode(Quote.self)
/// }
/// ```
public final class Channel: Sendable {
    /// The channel's id among the calls in flight: `cancel(.id(channel.requestID))` closes it.
    public let requestID: RequestID
    /// The service the channel belongs to.
    public let serviceID: ServiceID
    /// The first connection's upgrade call: its `101` status and header fields, its request.
    public let upgrade: CallResult<Void>
    /// Whether messages are sealed with the service's encryption stage.
    public var isSealed: Bool { state.withLock { $0.sealer != nil } }
    /// How the server closed the channel, once it has (`nil` while open, or when the channel closed it).
    public var closeFrame: ChannelClose? { state.withLock { $0.closeFrame } }

    /// The most messages that ever waited unread at once (for the tests of the bounded buffer).
    package var bufferPeak: Int { buffer.peak }

    private struct State {
        var connection: Connection
        var sealer: ChannelSealer?
        var closeFrame: ChannelClose?
        var closing = false
        var reconnections = 0
    }

    private let state: Mutex<State>
    let buffer: MessageBuffer
    let control = CallControl()
    private let client: APIClient
    private let configuration: ChannelConfiguration
    private let reopen: @Sendable (Channel) async throws(SwitchyardError) -> (Connection, ChannelSealer?)
    private let logger: Logger

    init(
        client: APIClient,
        upgrade: CallResult<Void>,
        connection: Connection,
        sealer: ChannelSealer?,
        configuration: ChannelConfiguration,
        logger: Logger,
        reopen: @escaping @Sendable (Channel) async throws(SwitchyardError) -> (Connection, ChannelSealer?)
    ) {
        self.requestID = upgrade.requestID
        self.serviceID = upgrade.serviceID
        self.upgrade = upgrade
        self.client = client
        self.configuration = configuration
        self.logger = logger
        self.reopen = reopen
        self.buffer = MessageBuffer(capacity: configuration.inboundBuffer)
        self.state = Mutex(State(connection: connection, sealer: sealer))
    }

    /// The messages as they arrive, whole, opened when sealed; they end when the channel closes
    /// normally, and throw when it ends otherwise: `SwitchyardError.Code.channelClosed`
    /// (a close code other than 1000, or a drop not reconnected), `SwitchyardError.Code.limitExceeded`
    /// (a message over ``ChannelConfiguration/maximumMessageSize``),
    /// `SwitchyardError.Code.crypto` (a sealed message tampered with, replayed or
    /// reordered), `SwitchyardError.Code.cancelled`. Read them from one task.
    public var messages: some AsyncSequence<ChannelMessage, SwitchyardError> & Sendable { Messages(buffer: buffer) }

    /// Sends a message, sealed when the channel is.
    ///
    /// - Throws: `SwitchyardError`: `SwitchyardError.Code.limitExceeded` for a
    ///   message over ``ChannelConfiguration/maximumMessageSize``, `SwitchyardError.Code.transport`
    ///   when no connection is open (closed, or between a drop and its reconnection).
    public func send(_ message: ChannelMessage) async throws(SwitchyardError) {
        let size = message.byteCount
        guard size <= configuration.maximumMessageSize else {
            throw SwitchyardError(
                code: .limitExceeded,
                message: "a channel message of \(size) bytes is longer than the limit of \(configuration.maximumMessageSize) bytes"
            )
        }
        let (connection, sealer) = state.withLock { ($0.connection, $0.sealer) }
        try await connection.send(message, sealer: sealer)
        logger.trace("channel message sent", metadata: ["request-id": "\(requestID)", "bytes": "\(size)"])
    }

    /// Sends `value` as a JSON text message.
    ///
    /// - Throws: `SwitchyardError.Code.encoding` when `value` does not encode, else as
    ///   ``send(_:)``.
    public func send<T: Encodable>(json value: T, encoder: JSONEncoder = JSONEncoder()) async throws(SwitchyardError) {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw SwitchyardError(code: .encoding, message: "a channel message of type \(T.self) does not encode", underlyingError: error)
        }
        try await send(.text(String(decoding: data, as: UTF8.self)))
    }

    /// Closes the channel with a close frame (`close`, 1000 by default) and ends its messages; the
    /// server's close frame is waited for at most ``ChannelConfiguration/closeTimeout``.
    public func close(_ close: ChannelClose = ChannelClose(code: .normal)) async {
        let connection = state.withLock { state -> Connection? in
            guard !state.closing else { return nil }
            state.closing = true
            return state.connection
        }
        guard let connection else { return }
        buffer.finish(nil)
        await connection.close(close, buffer: buffer)
        client.untrack(requestID)
        logger.debug("channel closed", metadata: ["request-id": "\(requestID)", "code": "\(close.code)"])
    }

    // MARK: Life

    /// Puts the channel in flight and watches its connections until it ends.
    func start(tags: Set<RequestTag>, account: String?) {
        _ = control.register { [weak self] in self?.cancelled() }
        client.track(requestID, control: control, serviceID: serviceID, tags: tags, account: account)
        adopt()
        Task { await self.watch() }
    }

    /// Lets the current connection's messages flow into the buffer.
    private func adopt() {
        let (connection, sealer) = state.withLock { ($0.connection, $0.sealer) }
        connection.adopt(
            Connection.Sink(buffer: buffer, sealer: sealer, maximumMessageSize: configuration.maximumMessageSize) { [weak self] in
                self?.state.withLock { $0.reconnections = 0 }
            }
        )
    }

    private func cancelled() {
        let error = control.cancellationError ?? SwitchyardError(code: .cancelled, message: "the channel was cancelled")
        let connection = state.withLock { state -> Connection? in
            guard !state.closing else { return nil }
            state.closing = true
            return state.connection
        }
        guard let connection else { return }
        buffer.finish(error)
        Task { await connection.close(ChannelClose(code: .goingAway, reason: "cancelled"), buffer: self.buffer) }
        logger.debug("channel cancelled", metadata: ["request-id": "\(requestID)"])
    }

    /// Waits for each connection's end; reconnects when the policy allows, else ends the messages.
    private func watch() async {
        while true {
            let connection = state.withLock { $0.connection }
            let ending = await connection.ended()
            if state.withLock({ $0.closing }) { break }
            if let close = ending.close { state.withLock { $0.closeFrame = close } }
            if let error = ending.error, error.code != .transport {
                finish(error)
                break
            }
            let close = ending.close ?? ChannelClose(code: .abnormal)
            if close.code == .normal {
                finish(nil)
                break
            }
            guard close.code.reconnects, let policy = configuration.reconnect else {
                finish(Self.closedError(close, underlying: ending.error))
                break
            }
            do throws(SwitchyardError) {
                try await reconnect(policy)
            } catch {
                finish(error.code == .cancelled ? error : Self.closedError(close, underlying: error))
                break
            }
        }
    }

    /// Opens a new connection through the pipeline after the policy's backoff, at most
    /// `maxAttempts − 1` times in a row without a message between them; then resubscribes.
    private func reconnect(_ policy: RetryPolicy) async throws(SwitchyardError) {
        while true {
            let attempt = state.withLock { state in
                state.reconnections += 1
                return state.reconnections
            }
            guard attempt < policy.maxAttempts else {
                throw SwitchyardError(code: .transport, message: "the channel did not reconnect in \(attempt - 1) attempts")
            }
            var delay = policy.backoff(beforeRetry: attempt)
            if policy.jitter > 0, delay > .zero { delay = delay * (1 - policy.jitter * Double.random(in: 0...1)) }
            logger.debug("channel reconnecting", metadata: ["request-id": "\(requestID)", "attempt": "\(attempt)", "delay": "\(delay)"])
            do {
                let wait = delay
                try await control.runCancellable { try await Task.sleep(for: wait) }
            } catch {
                throw control.cancellationError
                    ?? SwitchyardError(code: .cancelled, message: "the channel was cancelled while reconnecting")
            }
            if let cancelled = control.cancellationError { throw cancelled }
            let opened: (Connection, ChannelSealer?)
            do throws(SwitchyardError) {
                opened = try await reopen(self)
            } catch {
                if let cancelled = control.cancellationError { throw cancelled }
                if error.code == .transport || error.code == .timeout { continue }
                throw error
            }
            let stillOpen = state.withLock { state in
                guard !state.closing else { return false }
                state.connection = opened.0
                state.sealer = opened.1
                return true
            }
            guard stillOpen else {
                opened.0.discard()
                return
            }
            if let resubscribe = configuration.resubscribe {
                do {
                    try await resubscribe(self)
                } catch {
                    throw SwitchyardError.wrapping(error)
                }
            }
            adopt()
            return
        }
    }

    private func finish(_ error: SwitchyardError?) {
        buffer.finish(error)
        client.untrack(requestID)
        state.withLock { $0.closing = true }
    }

    private static func closedError(_ close: ChannelClose, underlying: SwitchyardError?) -> SwitchyardError {
        SwitchyardError(
            code: .channelClosed,
            message: close.code == .abnormal
                ? "the channel's connection dropped without a close frame"
                : "the server closed the channel with code \(close.code)",
            detail: close,
            underlyingError: underlying
        )
    }

    /// The messages of ``messages``.
    struct Messages: AsyncSequence, Sendable {
        typealias Element = ChannelMessage
        typealias Failure = SwitchyardError
        let buffer: MessageBuffer

        func makeAsyncIterator() -> Iterator { Iterator(buffer: buffer) }

        struct Iterator: AsyncIteratorProtocol {
            let buffer: MessageBuffer

            mutating func next() async throws(SwitchyardError) -> ChannelMessage? { try await buffer.next() }

            mutating func next(isolation actor: isolated (any Actor)?) async throws(SwitchyardError) -> ChannelMessage? {
                try await buffer.next()
            }
        }
    }
}

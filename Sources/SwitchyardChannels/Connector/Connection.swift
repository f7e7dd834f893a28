import Foundation
import NIOCore
import NIOHTTP1
import NIOWebSocket
import Switchyard
import Synchronization
import WSCore

/// One WebSocket connection, from its upgrade to its end: what the transport waits for (the
/// handshake's answer), and, once a ``Channel`` adopts it, the messages it reads into the channel's
/// buffer and those it writes.
final class Connection: Sendable {
    /// The answer to the upgrade request.
    enum Handshake: Sendable {
        case upgraded(HTTPResponseHead)
        case refused(HTTPResponseHead, ByteBuffer)
        case failed(any Error)
    }

    /// How the connection ended.
    struct Ending: Sendable {
        /// The server's close frame, if it sent one.
        var close: ChannelClose?
        /// What ended it otherwise: a limit, a message that did not open, a dropped socket.
        var error: SwitchyardError?
    }

    /// What the channel gives the connection when it adopts it.
    struct Sink: Sendable {
        let buffer: MessageBuffer
        let sealer: ChannelSealer?
        let maximumMessageSize: Int
        /// Called with the connection's first message: a message resets the channel's reconnections.
        let received: @Sendable () -> Void
    }

    private struct State {
        var handshake: Handshake?
        var handshakeWaiter: CheckedContinuation<Handshake, Never>?
        var sink: Sink??
        var sinkWaiter: CheckedContinuation<Sink?, Never>?
        var outbound: WebSocketOutboundWriter?
        var outboundWaiters: [CheckedContinuation<WebSocketOutboundWriter?, Never>] = []
        var ending: Ending?
        var endingWaiters: [CheckedContinuation<Ending, Never>] = []
        var failure: SwitchyardError?
        var closing = false
        var sent: UInt64 = 0
        var task: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// Runs `run` (the NIO client connection) in a task of its own; its result ends the connection.
    func start(_ run: @escaping @Sendable () async throws -> WebSocketCloseFrame?) {
        let task = Task {
            do {
                let frame = try await run()
                self.end(close: frame.map { ChannelClose(code: .init($0.closeCode.channelCode), reason: $0.reason) }, error: nil)
            } catch {
                self.handshook(.failed(error))
                self.end(close: nil, error: Self.describe(error))
            }
        }
        state.withLock { $0.task = task }
    }

    // MARK: The handshake

    func upgraded(_ head: HTTPResponseHead) { handshook(.upgraded(head)) }

    func refused(_ head: HTTPResponseHead, body: ByteBuffer) { handshook(.refused(head, body)) }

    /// Ends the handshake with `error` (a pinned key the server did not present), unless it already
    /// ended.
    func handshakeFailed(_ error: SwitchyardError) { handshook(.failed(error)) }

    /// Ends a handshake that took longer than `limit`.
    func timedOut(_ limit: Duration) {
        handshook(.failed(SwitchyardError(code: .timeout, message: "the channel's upgrade took longer than \(limit)")))
        abort()
    }

    private func handshook(_ handshake: Handshake) {
        let waiter = state.withLock { state -> CheckedContinuation<Handshake, Never>? in
            guard state.handshake == nil else { return nil }
            state.handshake = handshake
            defer { state.handshakeWaiter = nil }
            return state.handshakeWaiter
        }
        waiter?.resume(returning: handshake)
    }

    /// The answer to the upgrade request, when it comes.
    func handshake() async -> Handshake {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Handshake? in
                if let handshake = state.handshake { return handshake }
                state.handshakeWaiter = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    // MARK: Adoption

    /// Hands the open connection to its channel: messages flow from now on.
    func adopt(_ sink: Sink) { setSink(sink) }

    /// Closes a connection no channel will adopt (a response stage refused the answer, the call was
    /// cancelled).
    func discard() {
        setSink(nil)
        abort()
    }

    private func setSink(_ sink: Sink?) {
        let waiter = state.withLock { state -> CheckedContinuation<Sink?, Never>? in
            guard state.sink == nil else { return nil }
            state.sink = .some(sink)
            defer { state.sinkWaiter = nil }
            return state.sinkWaiter
        }
        waiter?.resume(returning: sink)
    }

    private func awaitSink() async -> Sink? {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Sink?? in
                if let sink = state.sink { return .some(sink) }
                state.sinkWaiter = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    // MARK: Messages

    /// swift-websocket's data handler: reads whole messages (at most the sink's size) into the
    /// channel's buffer, waiting while it is full, until the server closes or the channel does.
    func serve(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async throws {
        let waiters = state.withLock { state in
            state.outbound = outbound
            defer { state.outboundWaiters = [] }
            return state.outboundWaiters
        }
        for waiter in waiters { waiter.resume(returning: outbound) }
        guard let sink = await awaitSink() else { return }
        var frames = inbound.makeAsyncIterator()
        var received: UInt64 = 0
        var parts = ByteBuffer()
        var text = false
        var first = true
        do {
            while let frame = try await frames.next() {
                switch frame.opcode {
                case .text, .binary:
                    parts.clear()
                    text = frame.opcode == .text
                case .continuation:
                    break
                }
                guard parts.readableBytes + frame.data.readableBytes <= sink.maximumMessageSize + (sink.sealer == nil ? 0 : 64) else {
                    let error = SwitchyardError(
                        code: .limitExceeded,
                        message: "a channel message is longer than the limit of \(sink.maximumMessageSize) bytes; "
                            + "raise maximumMessageSize if the server's are that long"
                    )
                    fail(error)
                    try? await outbound.close(.messageTooLarge, reason: "message too large")
                    return
                }
                // A message in one frame (the usual case) is read from the frame itself; only a
                // fragmented one is gathered first.
                let whole: ByteBuffer
                if frame.fin, frame.opcode != .continuation {
                    whole = frame.data
                } else {
                    var data = frame.data
                    parts.writeBuffer(&data)
                    guard frame.fin else { continue }
                    whole = parts
                }
                let message: ChannelMessage
                if let sealer = sink.sealer {
                    guard !text else { throw SwitchyardError(code: .crypto, message: "a sealed channel received a plaintext text message") }
                    message = try sealer.open(Data(whole.readableBytesView), expected: received)
                    received += 1
                } else if text {
                    guard let string = String(validating: whole.readableBytesView, as: UTF8.self) else {
                        throw SwitchyardError(code: .invalidResponse, message: "a channel text message is not UTF-8")
                    }
                    message = .text(string)
                } else {
                    message = .binary(Data(whole.readableBytesView))
                }
                if first {
                    first = false
                    sink.received()
                }
                guard await sink.buffer.deliver(message) else { return }
            }
        } catch let error as SwitchyardError {
            fail(error)
            try? await outbound.close(error.code == .crypto ? .policyViolation : .unacceptableData, reason: nil)
        } catch {
            // Kept before swift-websocket's handler sees it: its closing handshake on a connection
            // that is already gone may end without rethrowing it (a frame over the limit).
            fail(Self.describe(error))
            throw error
        }
    }

    /// Sends `message` on the open connection, sealed when the channel is.
    func send(_ message: ChannelMessage, sealer: ChannelSealer?) async throws(SwitchyardError) {
        let outbound = await writer()
        guard let outbound, !state.withLock({ $0.closing }) else {
            throw SwitchyardError(code: .transport, message: "the channel's connection is not open")
        }
        do {
            if let sealer {
                let sequence = state.withLock { state in
                    defer { state.sent += 1 }
                    return state.sent
                }
                try await outbound.writeBinaryMessage(ByteBuffer(bytes: try sealer.seal(message, sequence: sequence)))
            } else {
                switch message {
                case .text(let text): try await outbound.writeTextMessage(text)
                case .binary(let data): try await outbound.writeBinaryMessage(ByteBuffer(bytes: data))
                }
            }
        } catch let error as SwitchyardError {
            throw error
        } catch {
            throw SwitchyardError(code: .transport, message: "a channel message could not be sent: \(error)", underlyingError: error)
        }
    }

    /// Sends a close frame with `close` and lets the connection finish its closing handshake.
    func close(_ close: ChannelClose, buffer: MessageBuffer?) async {
        state.withLock { $0.closing = true }
        buffer?.release()
        let outbound = await writer()
        setSink(nil)
        guard let outbound else {
            abort()
            return
        }
        let code = WebSocketErrorCode(codeNumber: Int(close.code.rawValue))
        do {
            try await outbound.close(code, reason: close.reason)
        } catch {
            abort()
        }
    }

    /// The connection's writer once swift-websocket's handler hands it over (just after the upgrade);
    /// `nil` if the connection ends first.
    private func writer() async -> WebSocketOutboundWriter? {
        // The open connection's writer without a suspension: a continuation resumed at once would
        // still send every message through the executor once more.
        let ready = state.withLock { state -> WebSocketOutboundWriter?? in
            if let outbound = state.outbound { return .some(outbound) }
            if state.ending != nil { return .some(nil) }
            return nil
        }
        if let ready { return ready }
        return await withCheckedContinuation { continuation in
            let now = state.withLock { state -> WebSocketOutboundWriter?? in
                if let outbound = state.outbound { return .some(outbound) }
                if state.ending != nil { return .some(nil) }
                state.outboundWaiters.append(continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Whether the channel asked to close it.
    var isClosing: Bool { state.withLock { $0.closing } }

    /// Ends the connection at once, without a close frame.
    func abort() {
        state.withLock { $0.task }?.cancel()
    }

    // MARK: The end

    /// Records what ends the connection, unless something already did.
    func fail(_ error: SwitchyardError) {
        state.withLock { state in
            if state.failure == nil { state.failure = error }
        }
    }

    private func end(close: ChannelClose?, error: SwitchyardError?) {
        let (waiters, writers, ending) = state.withLock { state in
            let ending = Ending(close: close, error: state.failure ?? (close == nil ? error : nil))
            state.ending = ending
            state.outbound = nil
            defer {
                state.endingWaiters = []
                state.outboundWaiters = []
            }
            return (state.endingWaiters, state.outboundWaiters, ending)
        }
        for waiter in waiters { waiter.resume(returning: ending) }
        for writer in writers { writer.resume(returning: nil) }
    }

    /// How the connection ended, when it has.
    func ended() async -> Ending {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Ending? in
                if let ending = state.ending { return ending }
                state.endingWaiters.append(continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// A connection's failure as a typed error, without the server's words.
    static func describe(_ error: any Error) -> SwitchyardError {
        if let error = error as? SwitchyardError { return error }
        if let error = error as? NIOWebSocketError, error == .invalidFrameLength {
            return SwitchyardError(
                code: .limitExceeded,
                message: "a channel frame is longer than the channel's limit",
                underlyingError: error
            )
        }
        if error is CancellationError {
            return SwitchyardError(code: .cancelled, message: "the channel's connection was cancelled", underlyingError: error)
        }
        return SwitchyardError(code: .transport, message: "the channel's connection failed: \(error)", underlyingError: error)
    }
}

extension WebSocketErrorCode {
    /// The code's number on the wire.
    var channelCode: UInt16 {
        var buffer = ByteBuffer()
        buffer.write(webSocketErrorCode: self)
        return buffer.readInteger(as: UInt16.self) ?? 1006
    }
}

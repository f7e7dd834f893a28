import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOWebSocket
import Switchyard
import SwitchyardAsyncHTTPClient
import WSClient
@_spi(WSInternal) import WSCore

/// One WebSocket connection's setup on a SwiftNIO channel, for swift-websocket's `ClientConnection`:
/// the upgrade request with the header fields the service's stages set, then either swift-websocket's
/// own connection handler (framing, pings, the close handshake) or the refused answer, read whole
/// (up to ``refusedBodyLimit``) so the pipeline's response stages and the error can carry it.
///
/// swift-websocket's `WebSocketClient` reports a refused upgrade without its status, and a `401`
/// must reach the service's authorization stage to be refreshed: hence this setup, which is
/// `WebSocketClient`'s own (`WebSocketClientChannel`) with both answers kept.
struct UpgradeChannel: ClientConnectionChannel {
    enum Outcome: Sendable {
        case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, HTTPResponseHead)
        case refused(EventLoopFuture<(HTTPResponseHead, ByteBuffer)>)
    }

    typealias Value = EventLoopFuture<Outcome>
    typealias Result = WebSocketCloseFrame?

    /// The most of a refused answer's body kept for the error.
    static let refusedBodyLimit = 64 * 1024

    let host: String
    let requestHead: HTTPRequestHead
    let sslContext: NIOSSLContext?
    /// The service's pins, when its transport pins (see ``WebSocketConnector``): checked on the
    /// verified leaf certificate before the upgrade request is written.
    let pins: PublicKeyPins?
    /// What a refused pin says: the service and the origin.
    let pinnedOrigin: (service: ServiceID, origin: String)
    let configuration: WebSocketHandler.Configuration
    let maxFrameSize: Int
    let inboundFrames: Int
    let connection: Connection

    func setup(channel: any NIOCore.Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let frames = inboundFrames
            let upgrader = NIOTypedWebSocketClientUpgrader<Outcome>(
                maxFrameSize: maxFrameSize,
                upgradePipelineHandler: { [connection] channel, head in
                    channel.eventLoop.makeCompletedFuture {
                        // At most `frames` frames wait unread: the socket is not read while they do.
                        let strategy = NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark(
                            lowWatermark: max(1, frames / 2),
                            highWatermark: max(2, frames)
                        )
                        let early = try channel.pipeline.syncOperations.context(name: HalfCloseCloser.name)
                        channel.pipeline.syncOperations.removeHandler(context: early, promise: nil)
                        try channel.pipeline.syncOperations.addHandler(FrameLimitWatcher(connection: connection))
                        let asyncChannel = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(
                            wrappingChannelSynchronously: channel,
                            configuration: .init(backPressureStrategy: strategy)
                        )
                        return Outcome.upgraded(asyncChannel, head)
                    }
                }
            )
            let upgrade = NIOTypedHTTPClientUpgradeConfiguration(
                upgradeRequestHead: requestHead,
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let answer = channel.eventLoop.makePromise(of: (HTTPResponseHead, ByteBuffer).self)
                        try channel.pipeline.syncOperations.addHandler(RefusalCollector(promise: answer, limit: Self.refusedBodyLimit))
                        return Outcome.refused(answer.futureResult)
                    }
                }
            )
            var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgrade)
            pipeline.leftOverBytesStrategy = .forwardBytes
            if let sslContext {
                let tls = try NIOSSLClientHandler(context: sslContext, serverHostname: host)
                try channel.pipeline.syncOperations.addHandler(tls, position: .first)
                if let pins {
                    let verdict = channel.eventLoop.makePromise(of: Void.self)
                    let (service, origin) = pinnedOrigin
                    verdict.futureResult.whenFailure { [connection] failure in
                        let error =
                            (failure as? PinnedTunnelFailure)?.error(
                                service: service,
                                origin: origin,
                                outcome: "the channel was not opened",
                                underlyingError: failure
                            )
                            ?? SwitchyardError(
                                code: .transport,
                                message: "service '\(service)': TLS with \(origin) failed",
                                underlyingError: failure
                            )
                        connection.handshakeFailed(error)
                    }
                    try channel.pipeline.syncOperations.addHandler(PinCheckHandler(pins: pins, verdict: verdict), position: .after(tls))
                }
            }
            // SwiftNIO's upgrade never completes when the server closes the connection before any
            // answer: that close fails the outcome instead, so the handshake ends at once. A close the
            // connection sees only as half-closed input is made a whole close until the upgrade.
            try channel.pipeline.syncOperations.addHandler(HalfCloseCloser(), name: HalfCloseCloser.name, position: .first)
            let outcome = channel.eventLoop.makePromise(of: Outcome.self)
            try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: pipeline).cascade(to: outcome)
            channel.closeFuture.whenComplete { _ in outcome.fail(ChannelError.inputClosed) }
            return outcome.futureResult
        }
    }

    func handle(value: Value, logger: Logger) async throws -> WebSocketCloseFrame? {
        switch try await value.get() {
        case .upgraded(let asyncChannel, let head):
            connection.upgraded(head)
            let connection = self.connection
            return try await WebSocketHandler.handle(
                type: .client,
                configuration: configuration,
                asyncChannel: asyncChannel,
                context: ChannelContext(logger: logger),
                handler: { inbound, outbound, _ in try await connection.serve(inbound, outbound) }
            )
        case .refused(let answer):
            let (head, body) = try await answer.get()
            connection.refused(head, body: body)
            return nil
        }
    }
}

/// Closes the connection when the server closes its side before the upgrade's answer is complete
/// (the connection allows half-closure, so that close would otherwise wait for nothing); removed once
/// the connection is upgraded.
final class HalfCloseCloser: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    static let name = "switchyard-half-close-closer"

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent { context.close(promise: nil) }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Notes a frame longer than the limit, which SwiftNIO's decoder refuses (closing with 1009) before
/// the frame reaches the channel: the connection then ends with `SwitchyardError.Code.limitExceeded`.
final class FrameLimitWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private let connection: Connection

    init(connection: Connection) { self.connection = connection }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? NIOWebSocketError, error == .invalidFrameLength {
            connection.fail(Connection.describe(error))
        }
        context.fireErrorCaught(error)
    }
}

/// What swift-websocket's connection handler hands the data handler: the connection's logger.
struct ChannelContext: WebSocketContext {
    let logger: Logger
}

/// Reads a refused upgrade's answer — its head and up to `limit` bytes of its body — then closes the
/// connection.
final class RefusalCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let promise: EventLoopPromise<(HTTPResponseHead, ByteBuffer)>
    private let limit: Int
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    private var done = false

    init(promise: EventLoopPromise<(HTTPResponseHead, ByteBuffer)>, limit: Int) {
        self.promise = promise
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(var bytes):
            let room = limit - body.readableBytes
            if room > 0, let slice = bytes.readSlice(length: min(room, bytes.readableBytes)) { body.writeImmutableBuffer(slice) }
        case .end:
            finish(context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !done else { return }
        done = true
        promise.fail(error)
        context.close(promise: nil)
    }

    private func finish(context: ChannelHandlerContext) {
        guard !done else { return }
        done = true
        if let head {
            promise.succeed((head, body))
        } else {
            promise.fail(ChannelError.inputClosed)
        }
        context.close(promise: nil)
    }
}

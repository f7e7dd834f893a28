import NIOCore

/// One half of a relay between two channels: what one reads, the other writes, with back-pressure
/// (a side reads only while its partner can write) and closing carried across.
final class TunnelGlueHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var partner: TunnelGlueHandler?
    private var context: ChannelHandlerContext?
    private var pendingRead = false

    private init() {}

    /// Two handlers that relay to each other; add one to each channel.
    static func matchedPair() -> (TunnelGlueHandler, TunnelGlueHandler) {
        let first = TunnelGlueHandler()
        let second = TunnelGlueHandler()
        first.partner = second
        second.partner = first
        return (first, second)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        self.partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.partnerWrite(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.partnerFlush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.partnerClose()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        partner?.partnerClose()
        context.close(promise: nil)
    }

    /// One side's end of input: the other side finishes writing, then closes.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent { partner?.partnerClose() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { partner?.partnerBecameWritable() }
    }

    func read(context: ChannelHandlerContext) {
        if partner?.partnerWritable ?? false {
            context.read()
        } else {
            pendingRead = true
        }
    }

    private var partnerWritable: Bool { context?.channel.isWritable ?? false }

    private func partnerWrite(_ data: NIOAny) {
        context?.write(data, promise: nil)
    }

    private func partnerFlush() {
        context?.flush()
    }

    /// Closes this side once everything written to it has gone out: a full close would drop writes
    /// still queued (the tail of a response whose server closed the connection after it).
    private func partnerClose() {
        guard let context else { return }
        let channel = context.channel
        let flushed = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(NIOAny(ByteBuffer()), promise: flushed)
        flushed.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }

    private func partnerBecameWritable() {
        if pendingRead {
            pendingRead = false
            context?.read()
        }
    }
}

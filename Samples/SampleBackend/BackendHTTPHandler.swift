import NIOCore
import NIOHTTP1

/// Per-connection handler behind NIO's HTTP/1.1 server pipeline: accumulates each request body
/// (up to ``maxBodyBytes``), routes the request and writes the response, honouring keep-alive.
///
/// NIO's `HTTPServerPipelineHandler` (installed by `configureHTTPServerPipeline`) serialises
/// pipelined requests, so at most one request is in flight here at a time.
final class BackendHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The largest request body accepted; bigger bodies are drained and answered with 413.
    static let maxBodyBytes = 4 * 1024 * 1024

    private enum State {
        case idle
        case receiving(HTTPRequestHead, ByteBuffer)
        case oversized(HTTPRequestHead)
    }

    private var state = State.idle
    private var pendingDelay: Scheduled<Void>?
    private let server: BackendServerState

    init(server: BackendServerState) {
        self.server = server
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .head(let head):
            self.receiveHead(head, context: context)
        case .body(var chunk):
            guard case .receiving(let head, var body) = self.state else { return }
            self.state = .idle  // drop the stored reference so appending does not copy the buffer
            if body.readableBytes + chunk.readableBytes > Self.maxBodyBytes {
                self.state = .oversized(head)
            } else {
                if body.readableBytes == 0 {
                    body = chunk
                } else {
                    body.writeBuffer(&chunk)
                }
                self.state = .receiving(head, body)
            }
        case .end:
            let finished = self.state
            self.state = .idle
            switch finished {
            case .idle:
                return
            case .oversized(let head):
                self.server.recordRequest()
                let message = "request body exceeds \(Self.maxBodyBytes) bytes"
                self.write(.envelope(code: 413, msg: message, status: .payloadTooLarge), for: head, context: context)
            case .receiving(let head, let body):
                self.server.recordRequest()
                self.perform(BackendRouter.route(BackendRequest(head: head, body: body), state: self.server), for: head, context: context)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.pendingDelay?.cancel()
        self.pendingDelay = nil
        self.state = .idle
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func receiveHead(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let declaredLength = head.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
        if declaredLength > Self.maxBodyBytes {
            self.state = .oversized(head)
            return
        }
        self.state = .receiving(head, ByteBuffer())
        if head.headers.first(name: "expect")?.lowercased() == "100-continue" {
            let interim = HTTPResponseHead(version: head.version, status: .continue)
            context.writeAndFlush(Self.wrapOutboundOut(.head(interim)), promise: nil)
        }
    }

    private func perform(_ action: BackendAction, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        switch action {
        case .respond(let response):
            self.write(response, for: head, context: context)
        case .respondAfter(let delay, let response):
            self.pendingDelay = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
                self.pendingDelay = nil
                self.write(response, for: head, context: context)
            }
        case .closeConnection:
            context.close(promise: nil)
        }
    }

    private func write(_ response: BackendResponse, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        let keepAlive = head.isKeepAlive
        let code = response.status.code
        let bodyAllowed = code >= 200 && code != 204 && code != 304

        var headers = HTTPHeaders()
        headers.reserveCapacity(3)
        headers.add(name: "content-type", value: response.contentType)
        for field in response.extraHeaders { headers.add(name: field.name, value: field.value) }
        if bodyAllowed {
            headers.add(name: "content-length", value: String(response.body.readableBytes))
        }
        if !keepAlive {
            headers.add(name: "connection", value: "close")
        } else if head.version.major == 1, head.version.minor == 0 {
            headers.add(name: "connection", value: "keep-alive")
        }

        let responseHead = HTTPResponseHead(version: head.version, status: response.status, headers: headers)
        context.write(Self.wrapOutboundOut(.head(responseHead)), promise: nil)
        if bodyAllowed, head.method != .HEAD, response.body.readableBytes > 0 {
            context.write(Self.wrapOutboundOut(.body(.byteBuffer(response.body))), promise: nil)
        }
        if keepAlive {
            context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            let channel = context.channel
            context.writeAndFlush(Self.wrapOutboundOut(.end(nil))).whenComplete { _ in
                channel.close(promise: nil)
            }
        }
    }
}

import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Per-connection handler behind NIO's HTTP/1.1 server pipeline: accumulates each request body
/// (up to ``maxBodyBytes``) or streams it through the routes' ``LoopbackUpload``, routes the request
/// and writes the response, honouring keep-alive.
///
/// NIO's `HTTPServerPipelineHandler` (installed by `configureHTTPServerPipeline`) serialises
/// pipelined requests, so at most one request is in flight here at a time.
final class LoopbackHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The largest request body accepted; bigger bodies are drained and answered with 413.
    static let maxBodyBytes = 4 * 1024 * 1024

    private enum State {
        case idle
        case receiving(HTTPRequestHead, ByteBuffer)
        case oversized(HTTPRequestHead)
        /// An upload streamed through a receiver instead of collected.
        case uploading(HTTPRequestHead, any LoopbackUpload)
    }

    /// A large response being written as the socket accepts it.
    private struct Streaming {
        let stream: BlobStream
        let head: HTTPRequestHead
        var position: Int64
    }

    private var streaming: Streaming?
    /// The wait before the next chunk of a paced stream (``BlobStream/pace``) or the next piece of a
    /// ``PacedStream``.
    private var pacing: Scheduled<Void>?

    private var state = State.idle
    private var pendingDelay: Scheduled<Void>?
    private let connections: LoopbackConnections
    private let routes: LoopbackServer.Routes?
    private let uploads: LoopbackServer.Uploads?

    init(connections: LoopbackConnections, routes: LoopbackServer.Routes?, uploads: LoopbackServer.Uploads?) {
        self.connections = connections
        self.routes = routes
        self.uploads = uploads
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .head(let head):
            self.receiveHead(head, context: context)
        case .body(var chunk):
            if case .uploading(_, let receiver) = self.state {
                receiver.receive(chunk)
                return
            }
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
            case .uploading(let head, let receiver):
                self.connections.recordRequest()
                self.write(receiver.finish(), for: head, context: context)
            case .oversized(let head):
                self.connections.recordRequest()
                let message = "request body exceeds \(Self.maxBodyBytes) bytes"
                self.write(.envelope(code: 413, msg: message, status: .payloadTooLarge), for: head, context: context)
            case .receiving(let head, let body):
                self.connections.recordRequest()
                if let watch = self.watchResponse(for: head) {
                    self.write(watch, for: head, context: context)
                    return
                }
                self.perform(
                    LoopbackServer.route(LoopbackRequest(head: head, body: body), routes: self.routes),
                    for: head,
                    context: context
                )
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let streaming, let tag = streaming.stream.watch {
            self.connections.watch(tag, state: "closed", sent: streaming.position - streaming.stream.start)
        }
        self.pendingDelay?.cancel()
        self.pendingDelay = nil
        self.pacing?.cancel()
        self.pacing = nil
        self.state = .idle
        self.streaming = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A WebSocket upgrade the server's socket refused: the request is answered as any other.
        if error is NIOWebSocketUpgradeError { return }
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { self.pump(context: context) }
        context.fireChannelWritabilityChanged()
    }

    private func receiveHead(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        if let receiver = self.uploads?(head) {
            self.state = .uploading(head, receiver)
            self.continueIfExpected(head, context: context)
            return
        }
        let declaredLength = head.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
        if declaredLength > Self.maxBodyBytes {
            self.state = .oversized(head)
            return
        }
        self.state = .receiving(head, ByteBuffer())
        self.continueIfExpected(head, context: context)
    }

    /// The answer to `GET /watch/{tag}`: what the server saw of the stream watched under `tag`
    /// (`unknown` when none); `nil` for other requests.
    private func watchResponse(for head: HTTPRequestHead) -> LoopbackResponse? {
        let path = head.uri.split(separator: "?", maxSplits: 1).first ?? ""
        guard head.method == .GET, path.hasPrefix("/watch/") else { return nil }
        let tag = String(path.dropFirst("/watch/".count))
        let watched = self.connections.watched(tag)
        return .json(.object([("state", .string(watched?.state ?? "unknown")), ("sent", .int(Int(watched?.sent ?? 0)))]))
    }

    private func continueIfExpected(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        if head.headers.first(name: "expect")?.lowercased() == "100-continue" {
            let interim = HTTPResponseHead(version: head.version, status: .continue)
            context.writeAndFlush(Self.wrapOutboundOut(.head(interim)), promise: nil)
        }
    }

    private func perform(_ action: LoopbackAction, for head: HTTPRequestHead, context: ChannelHandlerContext) {
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
        case .stream(let stream):
            var headers = HTTPHeaders(stream.headers)
            headers.add(name: "content-length", value: String(stream.end - stream.start))
            guard self.writeStreamHead(stream.status, headers, for: head, context: context) else { return }
            self.streaming = Streaming(stream: stream, head: head, position: stream.start)
            self.pump(context: context)
        case .paced(let stream):
            guard self.writeStreamHead(stream.status, HTTPHeaders(stream.headers), for: head, context: context) else { return }
            self.writePieces(from: 0, of: stream, for: head, context: context)
        }
    }

    /// Writes the head of a streamed answer; `false` when the request was a `HEAD`, whose response is
    /// then finished, with no body to stream.
    private func writeStreamHead(
        _ status: HTTPResponseStatus,
        _ headers: HTTPHeaders,
        for head: HTTPRequestHead,
        context: ChannelHandlerContext
    ) -> Bool {
        var headers = headers
        if !head.isKeepAlive { headers.add(name: "connection", value: "close") }
        context.write(Self.wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        guard head.method != .HEAD else {
            self.finishResponse(for: head, context: context)
            return false
        }
        return true
    }

    /// Writes the pieces of a paced response from `index`, flushing each and waiting the stream's pace
    /// before the next; then ends the response, or — a pace after the last piece it sends — closes the
    /// connection where the stream breaks off.
    private func writePieces(from index: Int, of stream: PacedStream, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        var index = index
        while index < stream.stop {
            context.write(Self.wrapOutboundOut(.body(.byteBuffer(stream.pieces[index]))), promise: nil)
            index += 1
            if stream.pace > .zero, index < stream.stop || stream.stop < stream.pieces.count {
                let next = index
                self.pacing = context.eventLoop.assumeIsolated().scheduleTask(in: stream.pace) {
                    self.pacing = nil
                    self.writePieces(from: next, of: stream, for: head, context: context)
                }
                context.flush()
                return
            }
        }
        guard stream.stop < stream.pieces.count else {
            self.finishResponse(for: head, context: context)
            return
        }
        // Asked to break off mid-way: send the pieces before the drop point, then close.
        let channel = context.channel
        context.writeAndFlush(Self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer())))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Writes chunks of the streaming response while the channel is writable; resumes from
    /// `channelWritabilityChanged` when the socket has drained. A paced stream writes one chunk and
    /// resumes after its pace.
    private func pump(context: ChannelHandlerContext) {
        guard var streaming = self.streaming, self.pacing == nil else { return }
        let stop = streaming.stream.stop
        while streaming.position < stop, context.channel.isWritable {
            let chunk = streaming.stream.chunk(at: streaming.position, allocator: context.channel.allocator)
            streaming.position += Int64(chunk.readableBytes)
            context.write(Self.wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil)
            if let pace = streaming.stream.pace, streaming.position < stop {
                // Scheduled before flushing: a flush can report writability and re-enter `pump`.
                self.streaming = streaming
                if let tag = streaming.stream.watch {
                    self.connections.watch(tag, state: "open", sent: streaming.position - streaming.stream.start)
                }
                self.pacing = context.eventLoop.assumeIsolated().scheduleTask(in: pace) {
                    self.pacing = nil
                    self.pump(context: context)
                }
                context.flush()
                return
            }
        }
        self.streaming = streaming
        if let tag = streaming.stream.watch {
            let finished = streaming.position >= streaming.stream.end
            self.connections.watch(tag, state: finished ? "finished" : "open", sent: streaming.position - streaming.stream.start)
        }
        guard streaming.position >= stop else {
            context.flush()
            return
        }
        self.streaming = nil
        if stop < streaming.stream.end {
            // Asked to break off mid-way: send what came before the drop point, then close.
            let channel = context.channel
            context.writeAndFlush(Self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer())))).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        self.finishResponse(for: streaming.head, context: context)
    }

    private func finishResponse(for head: HTTPRequestHead, context: ChannelHandlerContext) {
        if head.isKeepAlive {
            context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            let channel = context.channel
            context.writeAndFlush(Self.wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    private func write(_ response: LoopbackResponse, for head: HTTPRequestHead, context: ChannelHandlerContext) {
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

import NIOCore
import NIOHTTP1
import NIOWebSocket

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The "quotes" module under `/quotes-api`: a WebSocket at `/quotes-api/quotes` for a client that
/// carries `Authorization: Bearer demo-token` (the users module's token). Once open it sends
/// `{"type":"hello","symbols":[…]}`; a text message `{"subscribe":["ACME",…]}` is answered with one
/// `{"type":"quote","symbol":…,"price":…}` per known symbol; pings are answered, a close frame is
/// echoed. A plain request there is answered `401` without the token and `426` with it.
enum QuotesModule {
    /// The symbols the module quotes, with their fixed prices.
    static let prices: [(symbol: String, price: Double)] = [("ACME", 101.25), ("GLOBEX", 47.5), ("INITECH", 12.75)]
    /// The one path that upgrades.
    static let path = "/quotes-api/quotes"

    /// Whether `head` may open the socket: the path and the token.
    static func accepts(_ head: HTTPRequestHead) -> Bool {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        return path == Self.path && head.headers["authorization"].first == "Bearer demo-token"
    }

    /// Answers a plain (not upgraded) request below `/quotes-api`; `nil` when no route matches.
    static func route(_ request: LoopbackRequest, segments: ArraySlice<Substring>) -> LoopbackResponse? {
        guard Array(segments) == ["quotes"] else { return nil }
        guard request.head.headers["authorization"].first == "Bearer demo-token" else {
            return .json(.object([("error", "a quotes channel needs the demo token")]), status: .unauthorized)
        }
        return .json(.object([("error", "open /quotes-api/quotes as a WebSocket")]), status: .upgradeRequired)
    }
}

/// The frames of one upgraded quotes connection (see ``QuotesModule``).
final class QuotesSocketHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private struct Subscribe: Decodable { let subscribe: [String] }
    private var closing = false

    func handlerAdded(context: ChannelHandlerContext) {
        let symbols = QuotesModule.prices.map { "\"\($0.symbol)\"" }.joined(separator: ",")
        send(#"{"type":"hello","symbols":[\#(symbols)]}"#, context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text where frame.fin:
            var bytes = frame.unmaskedData
            let text = bytes.readString(length: bytes.readableBytes) ?? ""
            guard let subscribe = try? JSONDecoder().decode(Subscribe.self, from: Data(text.utf8)) else {
                send(#"{"type":"error","error":"send {\"subscribe\":[symbols]}"}"#, context: context)
                return
            }
            for (symbol, price) in QuotesModule.prices where subscribe.subscribe.contains(symbol) {
                send(#"{"type":"quote","symbol":"\#(symbol)","price":\#(price)}"#, context: context)
            }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            // Echo the client's close frame (its code and reason), then end the connection.
            if !closing {
                closing = true
                let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: frame.unmaskedData)
                context.writeAndFlush(wrapOutboundOut(close), promise: nil)
            }
            context.close(promise: nil)
        default:
            break
        }
    }

    private func send(_ text: String, context: ChannelHandlerContext) {
        guard !closing else { return }
        let frame = WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: text))
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }
}

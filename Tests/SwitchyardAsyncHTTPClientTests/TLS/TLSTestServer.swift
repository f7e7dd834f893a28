import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import SwitchyardSampleBackend
import SwitchyardTestSupport
import Synchronization

/// A small HTTPS/1.1 server on 127.0.0.1 for TLS tests, serving a ``TestCertificate``.
///
/// `GET /redirect?to=URL` answers `302` to `URL`; `GET /big?bytes=N` answers `N` bytes without a
/// length and closes the connection after them (the body ends at the close); every other request
/// answers `200` with
/// `{"host":…,"path":…,"authorization":…}` describing what arrived. Requests are counted once
/// their head has arrived, so a count of zero proves nothing of a request got through.
final class TLSTestServer: Sendable {
    let port: Int
    private let channel: any Channel
    private let received: Counter

    /// The number of requests whose head arrived.
    var requestCount: Int { received.value.withLock { $0 } }

    /// `https://localhost:<port>`.
    var baseURL: String { "https://localhost:\(port)" }

    private init(port: Int, channel: any Channel, received: Counter) {
        self.port = port
        self.channel = channel
        self.received = received
    }

    static func start(certificate: TestCertificate) async throws -> TLSTestServer {
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.certificatePath).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: certificate.keyPath, format: .pem))
        )
        let context = try NIOSSLContext(configuration: tls)
        let received = Counter()
        let count: @Sendable () -> Void = { received.value.withLock { $0 += 1 } }
        let channel = try await ServerBootstrap(group: SampleBackend.eventLoopGroup)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(NIOSSLServerHandler(context: context))
                    try pipeline.configureHTTPServerPipeline()
                    try pipeline.addHandler(DescribingHandler(count: count))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else { throw ChannelError.unknownLocalAddress }
        return TLSTestServer(port: port, channel: channel, received: received)
    }

    func shutdown() async {
        try? await channel.close()
    }

    private final class Counter: Sendable {
        let value = Mutex(0)
    }
}

/// Answers each request with a description of it, or a redirect.
private final class DescribingHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let count: @Sendable () -> Void
    private var head: HTTPRequestHead?

    init(count: @escaping @Sendable () -> Void) {
        self.count = count
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            count()
        case .body:
            break
        case .end:
            guard let head else { return }
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        var status = HTTPResponseStatus.ok
        var body = ByteBuffer()
        let components = URLComponents(string: head.uri)
        if components?.path == "/redirect", let target = components?.queryItems?.first(where: { $0.name == "to" })?.value {
            status = .found
            headers.add(name: "location", value: target)
        } else if components?.path == "/big",
            let count = components?.queryItems?.first(where: { $0.name == "bytes" })?.value.flatMap(Int.init)
        {
            headers.add(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
            let chunk = ByteBuffer(bytes: (0..<count).map { UInt8(truncatingIfNeeded: $0 % 251) })
            context.write(wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
            return
        } else {
            let description: [String: String] = [
                "host": head.headers.first(name: "host") ?? "",
                "path": head.uri,
                "authorization": head.headers.first(name: "authorization") ?? "",
            ]
            body.writeBytes((try? JSONEncoder().encode(description)) ?? Data())
            headers.add(name: "content-type", value: "application/json")
        }
        headers.add(name: "content-length", value: String(body.readableBytes))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

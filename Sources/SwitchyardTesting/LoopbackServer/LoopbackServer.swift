import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// A real HTTP/1.1 server on `127.0.0.1` over SwiftNIO: what ``TransportConformance`` runs against
/// when it is given no base URL, and the engine the sample backend adds its modules to.
///
/// It runs on an event loop of its own, keeps connections alive, answers pipelined requests in order,
/// collects request bodies up to 4 MiB (answering 413 above) unless the routes stream an upload
/// through a ``LoopbackUpload``, writes large files as the socket accepts them and paced streams
/// (``PacedStream``) piece by piece, and serves the
/// routes given to it first and ``LoopbackRoutes`` after them. Unknown routes answer 404 with
/// `{"code":404,"msg":"no route for <METHOD> <path>","data":null}`.
final class LoopbackServer: Sendable {
    /// Routes a request; `nil` passes it on to ``LoopbackRoutes``.
    typealias Routes = @Sendable (LoopbackRequest) -> LoopbackAction?

    /// Chooses the receiver that streams an upload, from its head; `nil` collects the body.
    typealias Uploads = @Sendable (HTTPRequestHead) -> (any LoopbackUpload)?

    /// A WebSocket the server upgrades to: whether a request head may upgrade, and the handler of an
    /// upgraded connection's frames (made once per connection). A request it refuses is routed as
    /// any other.
    struct Socket: Sendable {
        /// Whether the request may open the socket.
        let accepts: @Sendable (HTTPRequestHead) -> Bool
        /// The frames' handler of one upgraded connection.
        let handler: @Sendable () -> any ChannelHandler
    }

    /// The TCP port the server listens on.
    let port: Int

    /// The host the server was bound to.
    private let host: String
    /// The listening channel.
    private let channel: any Channel
    /// The request counter and open connections.
    private let connections: LoopbackConnections
    /// The event loop this server created for itself, shut down with it.
    private let ownedGroup: MultiThreadedEventLoopGroup?
    private let ownedGroupShutDown = Atomic(false)

    /// The root URL of the server, e.g. `"http://127.0.0.1:49152"`, without a trailing slash.
    var baseURL: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "http://\(host):\(self.port)"
    }

    /// The total number of requests received so far (counted once each request has fully arrived).
    var requestCount: Int { self.connections.requestCount }

    private init(host: String, port: Int, channel: any Channel, connections: LoopbackConnections, ownedGroup: MultiThreadedEventLoopGroup?)
    {
        self.host = host
        self.port = port
        self.channel = channel
        self.connections = connections
        self.ownedGroup = ownedGroup
    }

    /// The answer to `request`: `routes`' first, then ``LoopbackRoutes``', then a 404 envelope.
    static func route(_ request: LoopbackRequest, routes: Routes?) -> LoopbackAction {
        routes?(request) ?? LoopbackRoutes.route(request, segments: Array(request.pathSegments)) ?? .respond(.noRoute(for: request))
    }

    /// The upgrade to `socket`: the request handler `http` leaves the connection once it is upgraded.
    private static func upgrade(
        to socket: Socket,
        from http: LoopbackHTTPHandler,
        on channel: any Channel
    ) -> NIOHTTPServerUpgradeConfiguration {
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 16,
            shouldUpgrade: { channel, head in channel.eventLoop.makeSucceededFuture(socket.accepts(head) ? HTTPHeaders() : nil) },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(socket.handler()) }
            }
        )
        let handler = NIOLoopBound(http, eventLoop: channel.eventLoop)
        return (
            upgraders: [upgrader],
            completionHandler: { context in context.pipeline.syncOperations.removeHandler(handler.value, promise: nil) }
        )
    }

    /// Binds a new server to `host`:`port` and starts serving.
    ///
    /// - Parameters:
    ///   - host: The address to listen on; `127.0.0.1` by default.
    ///   - port: The port to listen on; `0` (the default) lets the OS choose a free one — read it back from ``port``.
    ///   - group: The event loops to serve on; by default one event loop of this server's own, shut
    ///     down by ``shutdown()`` — never the loops a client in the same process uses
    ///     (`MultiThreadedEventLoopGroup.singleton`, which AsyncHTTPClient shares), so that the
    ///     server's slow work (parsing a large upload in a debug build) cannot hold up a client's timeouts.
    ///   - routes: Routes served before the server's own.
    ///   - uploads: Which uploads to stream, and through what.
    ///   - socket: The WebSocket requests may upgrade to; `nil` for none.
    /// - Returns: The running server. Call ``shutdown()`` when done with it.
    /// - Throws: When the address cannot be bound.
    static func start(
        host: String = "127.0.0.1",
        port: Int = 0,
        group: (any EventLoopGroup)? = nil,
        routes: Routes? = nil,
        uploads: Uploads? = nil,
        socket: Socket? = nil
    ) async throws -> LoopbackServer {
        let connections = LoopbackConnections()
        let owned = group == nil ? MultiThreadedEventLoopGroup(numberOfThreads: 1) : nil
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: group ?? owned!)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        let http = LoopbackHTTPHandler(connections: connections, routes: routes, uploads: uploads)
                        try pipeline.configureHTTPServerPipeline(
                            withServerUpgrade: socket.map { Self.upgrade(to: $0, from: http, on: channel) },
                            withErrorHandling: true
                        )
                        try pipeline.addHandler(http)
                        connections.register(channel)
                    }
                }
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelOption(.maxMessagesPerRead, value: 16)
                .bind(host: host, port: port)
                .get()
        } catch {
            try? await owned?.shutdownGracefully()
            throw error
        }
        guard let boundPort = channel.localAddress?.port else {
            try? await channel.close()
            try? await owned?.shutdownGracefully()
            throw ChannelError.unknownLocalAddress
        }
        return LoopbackServer(host: host, port: boundPort, channel: channel, connections: connections, ownedGroup: owned)
    }

    /// Stops the server: closes the listening channel and every open connection.
    ///
    /// Idempotent: calling it again (or concurrently) just waits for the listening channel to be closed.
    func shutdown() async throws {
        self.connections.closeAllConnections()
        do {
            try await self.channel.close()
        } catch ChannelError.alreadyClosed {
            // Already shut down by an earlier call.
        }
        try await self.channel.closeFuture.get()
        if let ownedGroup, ownedGroupShutDown.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
            try await ownedGroup.shutdownGracefully()
        }
    }
}

import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// A local relay that gives AsyncHTTPClient a pinned TLS connection to one upstream server.
///
/// AsyncHTTPClient has no hook into certificate verification, so a pinned transport sends its
/// requests as plain HTTP/1.1 over a Unix domain socket in a directory only the current user can
/// enter (0700); the tunnel accepts each connection, opens TLS to the upstream host itself
/// (NIOSSL: chain and host name verified first), checks the server's public key against the pins,
/// and only then relays bytes — so nothing of a request reaches a server whose key is not pinned.
final class PinnedTunnel: Sendable {
    /// The host and port the tunnel connects to.
    let host: String
    let port: Int
    /// The socket AsyncHTTPClient connects to.
    let socketPath: String
    private let channel: any Channel
    private let failures: FailureLog

    private init(host: String, port: Int, socketPath: String, channel: any Channel, failures: FailureLog) {
        self.host = host
        self.port = port
        self.socketPath = socketPath
        self.channel = channel
        self.failures = failures
    }

    /// How many upstream connections have failed so far, and the latest failure.
    var failureState: (count: Int, last: PinnedTunnelFailure?) { failures.state.withLock { $0 } }

    /// Binds a tunnel to `host`:`port` at `socketPath` on `group`.
    static func open(
        host: String,
        port: Int,
        pinning: AsyncHTTPClientTransport.Pinning,
        socketPath: String,
        group: any EventLoopGroup
    ) async throws -> PinnedTunnel {
        var tls = pinning.tlsConfiguration
        tls.applicationProtocols = ["http/1.1"]
        let context = try NIOSSLContext(configuration: tls)
        let pins = pinning.pins
        let serverHostname = Self.isIPAddress(host) ? nil : host
        let failures = FailureLog()
        let record: @Sendable (PinnedTunnelFailure) -> Void = { failure in
            failures.state.withLock { $0 = ($0.count + 1, failure) }
        }
        let channel = try await ServerBootstrap(group: group)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                Self.connectUpstream(
                    for: inbound,
                    host: host,
                    port: port,
                    context: context,
                    serverHostname: serverHostname,
                    pins: pins,
                    record: record
                )
                return inbound.eventLoop.makeSucceededVoidFuture()
            }
            .bind(unixDomainSocketPath: socketPath, cleanupExistingSocketFile: true)
            .get()
        return PinnedTunnel(host: host, port: port, socketPath: socketPath, channel: channel, failures: failures)
    }

    /// How long connecting and the TLS handshake with the upstream server may take.
    static let handshakeTimeout = TimeAmount.seconds(30)

    /// Connects the upstream side of one accepted connection and, once its key is verified, relays.
    private static func connectUpstream(
        for inbound: any Channel,
        host: String,
        port: Int,
        context: NIOSSLContext,
        serverHostname: String?,
        pins: PublicKeyPins,
        record: @escaping @Sendable (PinnedTunnelFailure) -> Void
    ) {
        let handshakeTimeout = Self.handshakeTimeout
        let verdict = inbound.eventLoop.makePromise(of: Void.self)
        // Connecting and the handshake are bounded even when the call has no timeout of its own.
        let handshakeLimit = inbound.eventLoop.scheduleTask(in: handshakeTimeout) {
            verdict.fail(PinnedTunnelFailure.tls("no TLS handshake with the server within \(handshakeTimeout)"))
        }
        verdict.futureResult.whenComplete { _ in handshakeLimit.cancel() }
        let connected = ClientBootstrap(group: inbound.eventLoop)
            .connectTimeout(handshakeTimeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { outbound in
                outbound.eventLoop.makeCompletedFuture {
                    let pipeline = outbound.pipeline.syncOperations
                    try pipeline.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverHostname))
                    try pipeline.addHandler(PinCheckHandler(pins: pins, verdict: verdict))
                }
            }
            .connect(host: host, port: port)
        connected.whenFailure { error in
            verdict.fail(PinnedTunnelFailure.connect(String(describing: error)))
        }
        inbound.closeFuture.whenComplete { _ in
            connected.whenSuccess { $0.close(promise: nil) }
        }
        verdict.futureResult.and(connected).whenComplete { result in
            switch result {
            case .success((_, let outbound)):
                do {
                    let (inner, outer) = TunnelGlueHandler.matchedPair()
                    try inbound.pipeline.syncOperations.addHandler(inner)
                    try outbound.pipeline.syncOperations.addHandler(outer)
                    inbound.setOption(.autoRead, value: true).whenComplete { _ in inbound.read() }
                } catch {
                    record(.tls(String(describing: error)))
                    inbound.close(promise: nil)
                    outbound.close(promise: nil)
                }
            case .failure(let error):
                // A client that already gave up (its deadline, a cancellation) closed the inbound side;
                // what happened upstream after that is not a failure of any call.
                if inbound.isActive { record(error as? PinnedTunnelFailure ?? .connect(String(describing: error))) }
                inbound.close(promise: nil)
                connected.whenSuccess { $0.close(promise: nil) }
            }
        }
    }

    /// Closes the listening socket (open relays end with their connections) and removes its file.
    func close() async {
        try? await channel.close()
        try? FileManager.default.removeItem(atPath: socketPath)
    }

    private static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }

    /// How many upstream connections failed, and the latest failure.
    private final class FailureLog: Sendable {
        let state = Mutex<(count: Int, last: PinnedTunnelFailure?)>((0, nil))
    }
}

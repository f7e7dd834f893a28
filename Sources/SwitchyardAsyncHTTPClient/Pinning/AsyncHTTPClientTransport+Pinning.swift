import AsyncHTTPClient
import Foundation
public import NIOSSL
import SwitchyardCore

extension AsyncHTTPClientTransport {
    /// Public-key pinning for every connection a transport makes: register a pinned transport for the
    /// service whose servers you pin.
    ///
    /// A pinned transport sends only `https` requests, each over a connection whose TLS it opens
    /// itself (see ``PublicKeyPins``): `tlsConfiguration` verifies the chain and the host name first
    /// (TLS 1.2 at least), then the leaf's public key must be one of `pins`. A mismatch fails the call
    /// with ``Switchyard/SwitchyardError/Code/pinning`` naming the service, before any byte of the
    /// request is sent; an untrusted chain or a wrong host name fails it with
    /// ``Switchyard/SwitchyardError/Code/transport``. Redirects and foreign origins the service allows
    /// are held to the same pins: an origin with another key is refused.
    ///
    /// The relay connects to the server directly: a proxy set in the client's configuration is not
    /// used for pinned connections, and they speak HTTP/1.1.
    ///
    /// ```swift
    /// let pins = try PublicKeyPins(["sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="])
    /// try registry.register(Service(.payments, baseURL: "https://pay.example.com",
    ///                               transport: AsyncHTTPClientTransport(pinning: .init(pins: pins))))
    /// ```
    public struct Pinning: Sendable {
        /// The public keys the servers may present.
        public var pins: PublicKeyPins
        /// The TLS settings of the pinned connections: trust roots, certificate verification, versions.
        public var tlsConfiguration: TLSConfiguration

        /// Creates a pinning configuration.
        ///
        /// - Parameters:
        ///   - pins: the public keys the servers may present.
        ///   - tlsConfiguration: the TLS settings (the system's trust roots by default); a minimum
        ///     older than TLS 1.2 is raised to TLS 1.2.
        public init(pins: PublicKeyPins, tlsConfiguration: TLSConfiguration = .makeClientConfiguration()) {
            var tls = tlsConfiguration
            if tls.minimumTLSVersion == .tlsv1 || tls.minimumTLSVersion == .tlsv11 { tls.minimumTLSVersion = .tlsv12 }
            self.pins = pins
            self.tlsConfiguration = tls
        }
    }

    /// Closes the local relays a pinned transport opened (see ``Pinning``); calls made afterwards
    /// fail. ``withTransport(configuration:transportConfiguration:pinning:_:)`` does this for you; a
    /// transport kept for the life of the process never needs it.
    public func closePinnedConnections() async {
        await tunnels?.close()
    }

    /// The request to send through the pinned tunnel to its origin: plain HTTP over the tunnel's
    /// socket, addressed to the origin by its `Host` field.
    func pinnedClientRequest(
        _ request: Request,
        tunnels: PinnedTunnels,
        context: CallContext
    ) async throws -> (HTTPClientRequest, PinnedTunnel) {
        guard request.head.scheme == "https", let authority = request.head.authority else {
            throw SwitchyardError(
                code: .invalidRequest,
                message: "service '\(context.serviceID)' is pinned and sends only https; refusing \(Self.target(of: request))"
            )
        }
        let (host, port) = Self.hostAndPort(authority)
        let tunnel: PinnedTunnel
        do {
            tunnel = try await tunnels.tunnel(host: host, port: port)
        } catch {
            throw SwitchyardError(
                code: .transport,
                message: "service '\(context.serviceID)': could not open a pinned connection to \(authority): \(error)",
                underlyingError: error
            )
        }
        var clientRequest = try Self.makeClientRequest(request)
        let socket = tunnel.socketPath.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? tunnel.socketPath
        clientRequest.url = "http+unix://" + socket + (request.head.path ?? "/")
        if !clientRequest.headers.contains(name: "host") { clientRequest.headers.add(name: "host", value: authority) }
        return (clientRequest, tunnel)
    }

    /// RFC 3986's unreserved characters, ASCII only.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The error for a failed pinned call: the tunnel's own failure when one happened during the call
    /// and the call failed at the connection level (a timeout or a cancellation stays what it is).
    static func pinnedFailure(_ error: any Error, tunnel: PinnedTunnel, failuresBefore: Int, context: CallContext) -> SwitchyardError? {
        guard !(error is SwitchyardError), !(error is CancellationError) else { return nil }
        if let clientError = error as? HTTPClientError,
            [.deadlineExceeded, .cancelled, .readTimeout, .writeTimeout, .connectTimeout, .requestStreamCancelled].contains(clientError)
        {
            return nil
        }
        let state = tunnel.failureState
        guard state.count > failuresBefore, let failure = state.last else { return nil }
        return failure.error(
            service: context.serviceID,
            origin: "\(tunnel.host):\(tunnel.port)",
            outcome: "nothing was sent",
            underlyingError: error
        )
    }

    /// `host` and `port` of an `https` authority (`[v6]:port` included), 443 when none is given.
    static func hostAndPort(_ authority: String) -> (String, Int) {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            let host = String(authority[authority.index(after: authority.startIndex)..<close])
            let rest = authority[authority.index(after: close)...]
            return (host, rest.hasPrefix(":") ? Int(rest.dropFirst()) ?? 443 : 443)
        }
        if let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) {
            return (String(authority[..<colon]), port)
        }
        return (authority, 443)
    }
}

import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Switchyard
import SwitchyardAsyncHTTPClient
import Synchronization
import WSClient
@_spi(WSInternal) import WSCore

/// The transport at the end of a channel's upgrade call: opens a WebSocket connection with the
/// request the service's stages prepared and answers with the server's `101` head — or with its
/// refusal, status, header fields and (the first 64 KiB of) body, which the response stages and the
/// client's status check see as any answer. One per channel opening; the connection it opened last
/// is ``take()``n by the channel once the call returns.
///
/// Built on swift-websocket (its `ClientConnection` and connection handler, through its
/// `WSInternal` SPI) over SwiftNIO: `ws` and `wss` (NIOSSL, the system's trust roots). A service
/// whose transport is an `AsyncHTTPClientTransport` with `AsyncHTTPClientTransport.Pinning`
/// opens its channels under the same pinning: `wss` only, its TLS settings, and the leaf's public key
/// checked against its pins before the upgrade request is written.
final class WebSocketConnector: Transport {
    let configuration: ChannelConfiguration
    let pinning: AsyncHTTPClientTransport.Pinning?
    let eventLoopGroup: any EventLoopGroup
    private let opened = Mutex<(connection: Connection, request: HTTPRequest)?>(nil)

    init(
        configuration: ChannelConfiguration,
        pinning: AsyncHTTPClientTransport.Pinning?,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.configuration = configuration
        self.pinning = pinning
        self.eventLoopGroup = eventLoopGroup
    }

    var name: String { "WebSocketConnector" }

    /// The connection the last attempt opened, with the request that opened it; `nil` if none did.
    func take() -> (connection: Connection, request: HTTPRequest)? {
        opened.withLock { slot in
            defer { slot = nil }
            return slot
        }
    }

    func send(_ request: Request, context: CallContext) async throws -> Response {
        let head = request.head
        guard let scheme = head.scheme?.lowercased(), scheme == "http" || scheme == "https" || scheme == "ws" || scheme == "wss",
            let authority = head.authority, let url = URL(string: "\(scheme)://\(authority)"), let host = url.host
        else {
            throw SwitchyardError(code: .invalidRequest, message: "a channel opens on an http(s) or ws(s) URL with a host")
        }
        let secure = scheme == "https" || scheme == "wss"
        if pinning != nil, !secure {
            throw SwitchyardError(
                code: .invalidRequest,
                message: "service '\(context.serviceID)' is pinned and opens channels only over wss; refusing \(scheme)://\(authority)"
            )
        }
        let port = url.port ?? (secure ? 443 : 80)
        var fields = HTTPHeaders()
        fields.add(name: "Host", value: authority)
        for field in head.headerFields where field.name != .contentLength && field.name.canonicalName != "host" {
            fields.add(name: field.name.rawName, value: field.value)
        }
        let requestHead = HTTPRequestHead(version: .http1_1, method: .GET, uri: head.path ?? "/", headers: fields)
        let sslContext: NIOSSLContext?
        do {
            sslContext = secure ? try NIOSSLContext(configuration: pinning?.tlsConfiguration ?? .makeClientConfiguration()) : nil
        } catch {
            throw SwitchyardError(code: .transport, message: "TLS could not be set up for the channel: \(error)", underlyingError: error)
        }
        let connection = Connection()
        // Frames up to a whole message (sealed ones a little longer): a longer frame ends the
        // connection with 1009 before its bytes are buffered.
        let frameSize = max(configuration.maximumMessageSize + 64, 1 << 14)
        let channel = UpgradeChannel(
            host: host,
            requestHead: requestHead,
            sslContext: sslContext,
            pins: pinning?.pins,
            pinnedOrigin: (context.serviceID, "\(host):\(port)"),
            configuration: .init(
                extensions: [],
                autoPing: configuration.pingInterval.map { AutoPingSetup.enabled(timePeriod: $0) } ?? .disabled,
                closeTimeout: configuration.closeTimeout,
                validateUTF8: false,
                maxFrameSize: frameSize
            ),
            maxFrameSize: frameSize,
            inboundFrames: max(2, configuration.inboundBuffer),
            connection: connection
        )
        let client = ClientConnection(channel, address: .hostname(host, port: port), eventLoopGroup: eventLoopGroup, logger: context.logger)
        connection.start { try await client.run() }
        // The handshake is bounded by the call's timeout and deadline, as any exchange is.
        let limit = context.effectiveTimeout
        let watchdog = limit.map { limit in
            Task {
                try? await Task.sleep(for: limit)
                if !Task.isCancelled { connection.timedOut(limit) }
            }
        }
        defer { watchdog?.cancel() }
        let handshake = await withTaskCancellationHandler {
            await connection.handshake()
        } onCancel: {
            connection.abort()
        }
        switch handshake {
        case .upgraded(let answer):
            if Task.isCancelled {
                connection.discard()
                throw SwitchyardError(code: .cancelled, message: "the channel's upgrade was cancelled")
            }
            let previous = opened.withLock { slot in
                defer { slot = (connection, head) }
                return slot
            }
            previous?.connection.discard()
            return Response(status: HTTPResponse.Status(code: Int(answer.status.code)), headerFields: HTTPFields(answer.headers))
        case .refused(let answer, let body):
            return Response(
                status: HTTPResponse.Status(code: Int(answer.status.code)),
                headerFields: HTTPFields(answer.headers),
                body: Data(body.readableBytesView)
            )
        case .failed(let error):
            if Task.isCancelled { throw SwitchyardError(code: .cancelled, message: "the channel's upgrade was cancelled") }
            throw Connection.describe(error)
        }
    }
}

extension HTTPFields {
    /// NIO's header fields as swift-http-types' (names that are not valid tokens are left out).
    init(_ headers: HTTPHeaders) {
        self.init()
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { self.append(HTTPField(name: name, value: value)) }
        }
    }
}

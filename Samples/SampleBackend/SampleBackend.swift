public import NIOCore
import NIOPosix

/// An embedded HTTP/1.1 server for Switchyard's demo, tests and benchmarks: the loopback server of
/// `SwitchyardTesting` (whose sources the `LoopbackServer` folder links) with the sample modules added.
///
/// It listens on `127.0.0.1` by default (port `0` lets the OS pick a free port), runs on
/// an event loop of its own, keeps connections alive, and serves:
///
/// - `/users-api/…` — the "users" module (envelope success code `0`, message `"ok"`):
///   `GET users/{id}`, `POST users`, `GET session` (expects `Authorization: Bearer demo-token`).
/// - `/vault-api/…` — the "vault" module, every body encrypted (`aes-256-gcm`, key ``vaultKeyID``):
///   `POST notes` and `GET notes/{id}`.
/// - `/catalog-api/…` — the "catalog" module (envelope success code `100`, message `"success"`):
///   `GET articles?page=&size=` and `GET articles/{id}`.
/// - `/assistant-api/…` — the streamed "assistant" module (expects `Authorization: Bearer demo-token`):
///   `GET answer?q=` answers word by word as Server-Sent Events, resuming after `Last-Event-ID`;
///   `GET progress?steps=` reports a job's progress as JSON Lines.
/// - `/echo[/…]` (any method), `GET /status/{code}`, `GET /delay/{ms}`, `GET /bench`,
///   `GET /not-json` and `GET /close` (drops the connection without answering).
/// - `GET /precompressed` — a text served as gzip, deflate or itself by `Accept-Encoding`, with
///   `Content-Length` and ranges per representation, like nginx's `gzip_static`; `GET /gzip-bomb`.
/// - `GET /auth/{basic|digest|bearer}` — a `401` with that scheme's `WWW-Authenticate` challenge.
/// - `GET /files/blob/{bytes}` — large ranged files, broken off (`dropAt=`) or slow (`X-Blob-Pace`) on request.
///
/// Unknown routes answer 404 with `{"code":404,"msg":"no route for <METHOD> <path>","data":null}`;
/// request bodies above 4 MiB answer 413.
public final class SampleBackend: Sendable {
    /// Event loops for other servers of the tests (two threads for the life of the process), kept
    /// apart from the client's.
    public static let eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 2)

    /// The key id of the vault module's key ring.
    public static let vaultKeyID = "demo-2026"

    /// The vault module's AES-256 key: a fixed, public demo key — never use it for anything real.
    public static let vaultKey: [UInt8] = Array("switchyard-demo-vault-key-32-byt".utf8)

    /// The shop module's encryption key id (AES-256-GCM, like the vault, but its own key).
    public static let shopKeyID = "shop-2026"

    /// The shop module's 32-byte encryption key.
    public static let shopKey: [UInt8] = Array("switchyard-demo-shop-enc-key-32b".utf8)

    /// The shop module's HMAC-SHA256 signing key (requests and responses are signed).
    public static let shopSigningKey: [UInt8] = Array("switchyard-demo-shop-signing-key".utf8)

    /// The refresh token `POST /shop-api/token` accepts.
    public static let shopRefreshToken = "shop-refresh-2026"

    /// How many requests reached `/flaky/{key}/…`, `/counter/{key}` or `/pages/{key}`: pass
    /// `"flaky/KEY"`, `"counter/KEY"` or `"pages/KEY"`.
    public func hits(_ key: String) -> Int { self.state.hitCount(key) }

    /// The access token the shop module accepts now.
    public var shopToken: String { self.state.shopTokens.withLock { $0.current } }

    /// How many times `POST /shop-api/token` has issued a new token.
    public var shopTokenRefreshes: Int { self.state.shopTokens.withLock { $0.refreshes } }

    /// Makes the shop's current token expire: the next calls that carry it get a 401 until a client
    /// refreshes. Returns the token that is now valid, which clients do not know yet.
    @discardableResult
    public func expireShopToken() -> String {
        self.state.shopTokens.withLock { tokens in
            tokens.current = "shop-token-\(tokens.refreshes + 1)-rotated"
            return tokens.current
        }
    }

    /// Makes the next `count` refreshes fail with a 503.
    public func refuseShopTokenRefreshes(_ count: Int) {
        self.state.shopTokens.withLock { $0.refusals = count }
    }

    /// The loopback server the modules are served by.
    private let server: LoopbackServer
    /// The modules' state.
    private let state: SampleState

    /// The root URL of the server, e.g. `"http://127.0.0.1:49152"`, without a trailing slash.
    public var baseURL: String { self.server.baseURL }

    /// The TCP port the server listens on.
    public var port: Int { self.server.port }

    /// The total number of requests received so far (counted once each request has fully arrived).
    public var requestCount: Int { self.server.requestCount }

    private init(server: LoopbackServer, state: SampleState) {
        self.server = server
        self.state = state
    }

    /// Binds a new server to `host`:`port` and starts serving.
    ///
    /// - Parameters:
    ///   - host: The address to listen on; `127.0.0.1` by default.
    ///   - port: The port to listen on; `0` (the default) lets the OS choose a free one — read it back from ``port``.
    ///   - group: The event loops to serve on; by default one event loop of this server's own, shut
    ///     down by ``shutdown()`` — never the loops a client in the same process uses
    ///     (`MultiThreadedEventLoopGroup.singleton`, which AsyncHTTPClient shares) nor another sample
    ///     backend's, so that one server's slow work (parsing a large upload in a debug build) cannot
    ///     hold up a client's timeouts or another test's server.
    /// - Returns: The running server. Call ``shutdown()`` when done with it.
    /// - Throws: When the address cannot be bound.
    public static func start(
        host: String = "127.0.0.1",
        port: Int = 0,
        group: (any EventLoopGroup)? = nil
    ) async throws -> SampleBackend {
        let state = SampleState()
        let server = try await LoopbackServer.start(
            host: host,
            port: port,
            group: group,
            routes: { SampleRoutes.route($0, state: state) },
            uploads: { UploadReceiver.receiver(for: $0) },
            socket: .init(accepts: QuotesModule.accepts, handler: { QuotesSocketHandler() })
        )
        return SampleBackend(server: server, state: state)
    }

    /// Stops the server: closes the listening channel and every open connection.
    ///
    /// Idempotent: calling it again (or concurrently) just waits for the listening channel to be closed.
    public func shutdown() async throws {
        try await self.server.shutdown()
    }
}

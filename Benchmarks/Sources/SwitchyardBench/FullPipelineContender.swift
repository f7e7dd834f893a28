import BenchSampleBackend
import Foundation
import HTTPTypes
import Logging
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCrypto
import Synchronization

/// Switchyard with the full pipeline against the sample backend's shop module: common parameters,
/// headers, the bearer token, logging at info to a discarding handler, null stripping, the envelope
/// check, AES-256-GCM both ways, HMAC signing of the request and verification of the response, and
/// decoding into a model. The server verifies, opens, seals and signs every exchange.
struct FullPipelineContender: Sendable {
    static let shop: ServiceID = "shop"

    /// The decoded order (nulls stripped; `coupon` and `note` arrive as nulls).
    struct Order: Decodable, Sendable {
        let id: Int
        let status: String
        let coupon: String?
        let note: String?
        let received: Received
        struct Received: Decodable, Sendable {
            let sku: String
            let qty: Int
            let app: String
        }
    }

    /// A read order (`GET /orders/{id}`).
    struct ReadOrder: Decodable, Sendable {
        let id: Int
    }

    let client: APIClient
    /// Calls made with a changing target, numbering them.
    private let calls = CallCounter()
    let endpoint = DynamicEndpoint<Order>(
        service: FullPipelineContender.shop,
        method: .post,
        path: "/orders",
        parameters: ["sku": "A-1", "qty": 2],
        options: CallOptions(timeout: .seconds(30)),
        as: Order.self
    )

    /// Registers the shop service on `registry` over `transport`, without the stages named in `dropping`.
    static func register(
        in registry: ServiceRegistry,
        baseURL: String,
        transport: any Switchyard.Transport,
        dropping: Set<String> = []
    ) throws {
        var logger = Logger(label: "bench.shop", factory: { _ in DiscardingLogHandler() })
        logger.logLevel = .info
        let tokens = ClosureTokenProvider(current: { "shop-token-1" }, refresh: { _ in throw CancellationError() })
        try registry.register(
            Service(
                shop,
                baseURL: baseURL + "/shop-api",
                stages: ([
                    CommonParametersStage([.fixed("app", "bench"), .dynamic("ts") { _ in .int(Int(Date().timeIntervalSince1970)) }]),
                    HeadersStage([.fixed(HTTPField.Name("X-App-Version")!, "2.1.0"), .fixed(.acceptLanguage, "en")]),
                    AuthorizationStage(provider: tokens),
                    LoggingStage(logger: logger),
                    NullStrippingStage(),
                    EnvelopeStage(successCodes: [0]),
                    EncryptionStage(keyRing: try KeyRing(keyID: SampleBackend.shopKeyID, key: SymmetricKey(SampleBackend.shopKey))),
                    SigningStage(
                        keyRing: try KeyRing(keyID: SampleBackend.shopKeyID, key: SymmetricKey(SampleBackend.shopSigningKey)),
                        responseVerification: .required
                    ),
                ] as [any Stage]).filter { !dropping.contains($0.id.rawValue) },
                transport: transport
            )
        )
    }

    /// The same order at `/orders?seq=N`, N new on every call.
    func callAtChangingQuery() async throws -> Int {
        let sequence = calls.next()
        var endpoint = endpoint
        endpoint.path = "/orders?seq=\(sequence)"
        let order = try await client.send(endpoint).value
        guard order.id == 42, order.received.qty == 2 else { throw CancellationError() }
        return 1
    }

    /// A read of order N (`GET /orders/N`, named `GET /orders/{id}`), N new on every call.
    func callAtChangingID() async throws -> Int {
        let sequence = calls.next()
        let read = DynamicEndpoint<ReadOrder>(
            service: Self.shop,
            method: .get,
            path: "/orders/\(sequence)",
            options: CallOptions(timeout: .seconds(30)),
            name: "GET /orders/{id}",
            as: ReadOrder.self
        )
        guard try await client.send(read).value.id == sequence else { throw CancellationError() }
        return 1
    }

    func call() async throws -> Int {
        let order = try await client.send(endpoint).value
        guard order.id == 42, order.received.qty == 2 else { throw CancellationError() }
        return 1
    }
}

/// A log handler at `info` that drops every message — so the logging stage does all its work
/// (building and redacting the lines) and only the output is skipped.
struct DiscardingLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        // Force the lazily built message, as a real handler would, then drop it.
        _ = event.message.description
    }
}

/// Counts a contender's calls across its copies.
final class CallCounter: Sendable {
    private let count = Atomic(0)

    /// The next call's number, from 1.
    func next() -> Int {
        count.add(1, ordering: .relaxed).newValue
    }
}

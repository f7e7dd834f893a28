import Foundation
import HTTPTypes
import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCrypto
import SwitchyardSampleBackend
import SwitchyardTelemetry
import SwitchyardTesting
import Synchronization
import Testing

/// Every built-in stage, registered in the documented order, against the sample backend's shop module.
@Suite("Full pipeline against the sample backend")
struct FullPipelineTests {
    struct Order: Decodable, Sendable {
        let id: Int
        let status: String
        let coupon: String?
        let received: [String: Received]?
        let query: [String: String]
        enum Received: Decodable, Sendable, Equatable {
            case text(String)
            case number(Int)
            case other
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let text = try? container.decode(String.self) {
                    self = .text(text)
                } else if let number = try? container.decode(Int.self) {
                    self = .number(number)
                } else {
                    self = .other
                }
            }
        }
    }

    struct Fixture {
        let backend: SampleBackend
        let client: APIClient
        let logs: InMemoryLogHandler
        let metrics: TestMetrics
        let tracer: InMemoryTracer
        let wire: EventRecorder
        let accessoryEvents: EventRecorder
        let accessory: RecordingAccessory
    }

    static let shop: ServiceID = "shop"
    static let shopAuth: ServiceID = "shop-auth"

    /// The documented order, outermost first.
    static func makeFixture() async throws -> Fixture {
        let backend = try await SampleBackend.start()
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        let logger = Logger(label: "shop", factory: { [handler] _ in handler })
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        let wire = EventRecorder()
        let events = EventRecorder()
        let accessory = RecordingAccessory("shop", recorder: events)
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(
            Service(
                shopAuth,
                baseURL: backend.baseURL + "/shop-api",
                stages: [EnvelopeStage(successCodes: [0])],
                transport: AsyncHTTPClientTransport()
            )
        )
        let authClient = APIClient(registry: registry)
        struct Issued: Decodable, Sendable { let token: String }
        let tokens = ClosureTokenProvider(
            current: { "shop-token-1" },
            refresh: { _ in
                try await authClient.send(
                    shopAuth,
                    .post,
                    "/token",
                    parameters: ["refresh_token": .string(SampleBackend.shopRefreshToken)],
                    as: Issued.self
                ).value.token
            }
        )
        let ring = try KeyRing(keyID: SampleBackend.shopKeyID, key: SymmetricKey(SampleBackend.shopKey))
        let signingRing = try KeyRing(keyID: SampleBackend.shopKeyID, key: SymmetricKey(SampleBackend.shopSigningKey))
        let tap = ClosureStage(id: "WireTap") { request, context, next in
            wire.record(
                "request \(request.path) \(request.headerFields.map { "\($0.name)" }.joined(separator: ",")) \(request.bodyText ?? "")"
            )
            let response = try await next(request, context)
            wire.record("response \(response.bodyText)")
            return response
        }
        let stages: [any Stage] = [
            MetricsStage(factory: metrics),
            TracingStage(tracer: tracer),
            AccessoryStage([accessory]),
            ClosureStage.request(id: "OrderCheck") { request, _ in
                if request.bodyText?.contains(#""qty":0"#) == true {
                    throw SwitchyardError(code: .refused, message: "qty must be positive")
                }
            },
            CommonParametersStage([.fixed("app", "switchyard-demo"), .dynamic("ts") { _ in .int(Int(Date().timeIntervalSince1970)) }]),
            HeadersStage([.fixed(HTTPField.Name("X-App-Version")!, "2.1.0")]),
            AuthorizationStage(provider: tokens),
            LoggingStage(logger: logger),
            NullStrippingStage(sanitizer: JSONSanitizer(removeNullArrayElements: true)),
            EnvelopeStage(successCodes: [0]),
            ValidationStage(.json),
            EncryptionStage(keyRing: ring),
            SigningStage(keyRing: signingRing, responseVerification: .required),
            tap,
        ]
        try registry.register(Service(shop, baseURL: backend.baseURL + "/shop-api", stages: stages, transport: AsyncHTTPClientTransport()))
        return Fixture(
            backend: backend,
            client: APIClient(registry: registry),
            logs: handler,
            metrics: metrics,
            tracer: tracer,
            wire: wire,
            accessoryEvents: events,
            accessory: accessory
        )
    }

    @Test("an order goes out signed, sealed, authorised and with common parameters, and comes back as a clean entity")
    func roundTrip() async throws {
        let f = try await Self.makeFixture()
        let result = try await f.client.send(Self.shop, .post, "/orders", parameters: ["sku": "A-1", "qty": 2], as: Order.self)
        #expect(result.status == .created)
        #expect(result.value.id == 42)
        #expect(result.value.coupon == nil)
        #expect(result.value.received?["app"] == .text("switchyard-demo"))
        #expect(result.value.received?["qty"] == .number(2))
        if case .number(let ts)? = result.value.received?["ts"] { #expect(ts > 1_700_000_000) } else { Issue.record("no ts") }

        // The payload reached decoding without nulls and without the envelope.
        let raw = try await f.client.send(Self.shop, .get, "/orders/{id}", pathParameters: ["id": "9"], parameters: ["lang": "zh"])
        let text = String(decoding: raw.value.bytes, as: UTF8.self)
        #expect(!text.contains("null") && !text.contains(#""code""#))
        #expect(text.contains(#""lines":[{"sku":"A-1"}]"#))
        #expect(text.contains(#""query":{"lang":"zh","app":"switchyard-demo","ts":"#))

        // On the wire: ciphertext both ways, every header the stages add.
        let requests = f.wire.events.filter { $0.hasPrefix("request ") }
        #expect(requests.count == 2)
        for line in requests {
            for name in ["traceparent", "X-App-Version", "Authorization", "X-Switchyard-Signature", "X-Switchyard-Nonce"] {
                #expect(line.contains(name))
            }
        }
        #expect(f.wire.events.allSatisfy { !$0.contains("A-1") && !$0.contains("switchyard-demo\"") })

        // Logs: plaintext but redacted; metrics and spans per call; accessories saw the lifecycle.
        let lines = f.logs.entries.map { "\($0.message) \($0.metadata)" }
        #expect(lines.contains { $0.hasPrefix("← 201 Created POST /shop-api/orders") })
        #expect(!lines.contains { $0.contains("shop-token-1") })
        #expect(lines.contains { $0.contains("Authorization: <redacted>") })
        #expect(f.metrics.counterTotal(label: "switchyard_calls_total") == 2)
        #expect(f.tracer.popFinishedSpans().count == 2)
        await f.accessory.waitForFinish()
        #expect(f.accessoryEvents.events.first == "shop willStart POST /shop-api/orders")
        #expect(f.accessoryEvents.events.contains { $0.hasPrefix("shop received") })
        try await f.backend.shutdown()
    }

    @Test("an expired token is refreshed once for 20 concurrent calls; a request check's refusal sends nothing")
    func refreshAndRefusal() async throws {
        let f = try await Self.makeFixture()
        _ = try await f.client.send(Self.shop, .get, "/orders/{id}", pathParameters: ["id": "1"])
        f.backend.expireShopToken()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    _ = try await f.client.send(Self.shop, .get, "/orders/{id}", pathParameters: ["id": "\(index + 1)"], as: Order.self)
                }
            }
            try await group.waitForAll()
        }
        #expect(f.backend.shopTokenRefreshes == 1)
        #expect(f.metrics.counterTotal(label: "switchyard_calls_total") == 21)

        let before = f.backend.requestCount
        do {
            _ = try await f.client.send(Self.shop, .post, "/orders", parameters: ["sku": "A-1", "qty": 0])
            Issue.record("expected a refusal")
        } catch {
            #expect(error.code == .refused)
            #expect(error.stage == StageID("OrderCheck"))
        }
        #expect(f.backend.requestCount == before)
        try await f.backend.shutdown()
    }

    @Test("a refresh the token service refuses fails every waiting call with the authentication error")
    func refusedRefresh() async throws {
        let f = try await Self.makeFixture()
        f.backend.expireShopToken()
        f.backend.refuseShopTokenRefreshes(1)
        let errors = await withTaskGroup(of: SwitchyardError?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do throws(SwitchyardError) {
                        _ = try await f.client.send(Self.shop, .get, "/orders/1")
                        return nil
                    } catch { return error }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(errors.allSatisfy { $0?.code == .authentication })
        #expect(
            errors.allSatisfy {
                ($0?.underlyingError as? SwitchyardError)?.detail(as: EnvelopeFailure.self)?.businessCode == "503"
                    || ($0?.underlyingError as? SwitchyardError)?.status?.code == 503
            }
        )
        try await f.backend.shutdown()
    }
}

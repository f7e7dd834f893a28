import Foundation
import HTTPTypes
import Logging
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCrypto
import SwitchyardSampleBackend
import SwitchyardTelemetry

/// Registers the shop module with every built-in stage, in the documented order (outermost first),
/// and its token service.
enum ShopPipeline {
    /// What the shop's token endpoint answers.
    struct IssuedToken: Decodable, Sendable {
        let token: String
    }

    static func register(
        in registry: ServiceRegistry,
        backend: SampleBackend,
        transport: AsyncHTTPClientTransport,
        inspection: DemoInspection
    ) throws {
        try registry.register(
            Service(
                .shopAuth,
                baseURLs: [.develop: backend.baseURL + "/shop-api", .release: "https://api.example.com/shop"],
                defaults: inspection.defaults(),
                stages: inspection.stages([EnvelopeStage(successCodes: [0])]),
                transport: transport
            )
        )
        let auth = APIClient(registry: registry)
        let tokens = ClosureTokenProvider(
            current: { "shop-token-1" },
            refresh: { _ in
                print("      ↻ the token expired; refreshing it (once, for every call that was refused)")
                let issued = try await auth.send(
                    .shopAuth,
                    .post,
                    "/token",
                    parameters: ["refresh_token": .string(SampleBackend.shopRefreshToken)],
                    as: IssuedToken.self
                )
                return issued.value.token
            }
        )
        var logger = Logger(label: "shop", factory: { StreamLogHandler.standardOutput(label: $0) })
        logger.logLevel = .info
        let encryptionKeys = try KeyRing(keyID: SampleBackend.shopKeyID, key: SymmetricKey(SampleBackend.shopKey))
        let signingKeys = try KeyRing(keyID: SampleBackend.shopKeyID, key: SymmetricKey(SampleBackend.shopSigningKey))
        try registry.register(
            Service(
                .shop,
                baseURLs: [.develop: backend.baseURL + "/shop-api", .release: "https://api.example.com/shop"],
                defaults: inspection.defaults(),
                stages: inspection.stages([
                    MetricsStage(),
                    TracingStage(),
                    AccessoryStage([TerminalProgressAccessory()]),
                    ClosureStage.request(id: StageID("OrderCheck")!) { request, _ in
                        if request.bodyText?.contains(#""quantity":0"#) == true {
                            throw SwitchyardError(code: .refused, message: "an order line needs a quantity of at least 1")
                        }
                    },
                    CommonParametersStage([
                        .fixed("app", "switchyard-demo"), .dynamic("ts") { _ in .int(Int(Date().timeIntervalSince1970)) },
                    ]),
                    HeadersStage([.fixed(HTTPField.Name("X-App-Version")!, "2.1.0"), .fixed(.acceptLanguage, "zh-Hans, en")]),
                    AuthorizationStage(provider: tokens),
                    LoggingStage(logger: logger),
                    NullStrippingStage(sanitizer: JSONSanitizer(removeNullArrayElements: true)),
                    EnvelopeStage(successCodes: [0]),
                    ValidationStage(.json),
                    EncryptionStage(keyRing: encryptionKeys),
                    SigningStage(keyRing: signingKeys, responseVerification: .required),
                ]),
                transport: transport
            )
        )
    }
}

import HTTPTypes
public import Switchyard
import SwitchyardCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The demo's client-side modules of this backend — users, vault, shop (with its token service) and
/// control — registered with the pipelines the demo shows, shared by the demo and the tests that
/// record and replay them. Each service passes through `adjust` before it is registered, so the demo
/// can add its transcript, telemetry and logging, and a test its recorder or its fixtures.
public enum SampleModules {
    /// The users module: bearer authorization, a client-version header, envelope code 0.
    public static let users: ServiceID = "users"
    /// The vault module: envelope code 0 inside AES-256-GCM encryption of every body.
    public static let vault: ServiceID = "vault"
    /// The shop module: every built-in stage of the kernel and the crypto product, in the documented order.
    public static let shop: ServiceID = "shop"
    /// The shop's token service (plain JSON, envelope only).
    public static let shopAuth: ServiceID = "shop-auth"
    /// The backend's control routes (`/flaky`, `/counter`, `/delay`), with retries.
    public static let control: ServiceID = "control"

    /// Registers the modules in `registry`, in the order above's dependencies need (the token service
    /// before the shop).
    ///
    /// - Parameters:
    ///   - registry: the registry to register in.
    ///   - backend: the running backend the develop environment points at.
    ///   - transport: the transport of every module.
    ///   - onTokenRefresh: called when the shop refreshes its token, before it asks for a new one.
    ///   - adjust: turns each service into the one registered.
    public static func register(
        in registry: ServiceRegistry,
        backend: SampleBackend,
        transport: any Transport,
        onTokenRefresh: @escaping @Sendable () -> Void = {},
        adjust: (Service) throws -> Service = { $0 }
    ) throws {
        let base = backend.baseURL
        try registry.register(
            adjust(
                Service(
                    users,
                    baseURLs: [.develop: base + "/users-api", .release: "https://api.example.com/users"],
                    defaults: ServiceDefaults(timeout: .seconds(5), headerFields: [.accept: "application/json"]),
                    stages: [
                        ClosureStage.request(id: .authorization) { request, _ in request.headerFields[.authorization] = "Bearer demo-token"
                        },
                        HeadersStage([.fixed(HTTPField.Name("X-Client-Version")!, "1.0.0")]),
                        EnvelopeStage(successCodes: [0]),
                    ],
                    transport: transport
                )
            )
        )
        let vaultKeys = try KeyRing(keyID: SampleBackend.vaultKeyID, key: SymmetricKey(SampleBackend.vaultKey))
        try registry.register(
            adjust(
                Service(
                    vault,
                    baseURLs: [.develop: base + "/vault-api", .release: "https://api.example.com/vault"],
                    stages: [EnvelopeStage(successCodes: [0]), EncryptionStage(scheme: .aes256GCM, keyRing: vaultKeys)],
                    transport: transport
                )
            )
        )
        try registerShop(in: registry, base: base, transport: transport, onTokenRefresh: onTokenRefresh, adjust: adjust)
        try registry.register(
            adjust(
                Service(
                    control,
                    baseURLs: [.develop: base, .release: "https://api.example.com"],
                    stages: [RetryStage(RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(50)))],
                    transport: transport
                )
            )
        )
    }

    /// What the shop's token endpoint answers.
    private struct IssuedToken: Decodable, Sendable {
        let token: String
    }

    private static func registerShop(
        in registry: ServiceRegistry,
        base: String,
        transport: any Transport,
        onTokenRefresh: @escaping @Sendable () -> Void,
        adjust: (Service) throws -> Service
    ) throws {
        let baseURLs: [ServerEnvironment: String] = [.develop: base + "/shop-api", .release: "https://api.example.com/shop"]
        try registry.register(
            adjust(Service(shopAuth, baseURLs: baseURLs, stages: [EnvelopeStage(successCodes: [0])], transport: transport))
        )
        let auth = APIClient(registry: registry)
        let tokens = ClosureTokenProvider(
            current: { "shop-token-1" },
            refresh: { _ in
                onTokenRefresh()
                let parameters: Parameters = ["refresh_token": .string(SampleBackend.shopRefreshToken)]
                return try await auth.send(shopAuth, .post, "/token", parameters: parameters, as: IssuedToken.self).value.token
            }
        )
        let encryptionKeys = try KeyRing(keyID: SampleBackend.shopKeyID, key: SymmetricKey(SampleBackend.shopKey))
        let signingKeys = try KeyRing(keyID: SampleBackend.shopKeyID, key: SymmetricKey(SampleBackend.shopSigningKey))
        let stages: [any Stage] = [
            ClosureStage.request(id: "OrderCheck") { request, _ in
                if request.bodyText?.contains(#""quantity":0"#) == true {
                    throw SwitchyardError(code: .refused, message: "an order line needs a quantity of at least 1")
                }
            },
            CommonParametersStage([.fixed("app", "switchyard-demo"), .dynamic("ts") { _ in .int(Int(Date().timeIntervalSince1970)) }]),
            HeadersStage([.fixed(HTTPField.Name("X-App-Version")!, "2.1.0"), .fixed(.acceptLanguage, "zh-Hans, en")]),
            AuthorizationStage(provider: tokens),
            NullStrippingStage(sanitizer: JSONSanitizer(removeNullArrayElements: true)),
            EnvelopeStage(successCodes: [0]),
            ValidationStage(.json),
            EncryptionStage(keyRing: encryptionKeys),
            SigningStage(keyRing: signingKeys, responseVerification: .required),
        ]
        try registry.register(adjust(Service(shop, baseURLs: baseURLs, stages: stages, transport: transport)))
    }
}

import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCrypto
import SwitchyardOutbox
import SwitchyardSampleBackend

/// Step 15 of the demo: module 8, `orders-offline` — a durable outbox. Orders are placed while the
/// shop's backend is unreachable: each is stored on disk at once, with its `Idempotency-Key`, and
/// the outbox's attempts fail with connection errors. When the backend comes back the outbox drains
/// them in order through the shop's whole pipeline — token, encryption and signature made as each
/// order goes, not when it was placed.
enum OutboxTour {
    static let ordersOffline: ServiceID = "orders-offline"

    static func run(transport: AsyncHTTPClientTransport) async throws {
        // A backend of the outbox's own, so that it can be down while the rest of the demo's is up.
        let probe = try await SampleBackend.start()
        let port = Int(probe.baseURL.split(separator: ":").last ?? "") ?? 0
        try await probe.shutdown()

        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try registry.register(
            Service(
                ordersOffline,
                baseURL: "http://127.0.0.1:\(port)/shop-api",
                stages: [
                    ClosureStage.request(id: .authorization) { request, _ in request.headerFields[.authorization] = "Bearer shop-token-1" },
                    EnvelopeStage(successCodes: [0]),
                    EncryptionStage(keyRing: try KeyRing(keyID: SampleBackend.shopKeyID, key: SymmetricKey(SampleBackend.shopKey))),
                    SigningStage(
                        keyRing: try KeyRing(keyID: SampleBackend.shopKeyID, key: SymmetricKey(SampleBackend.shopSigningKey)),
                        responseVerification: .required
                    ),
                ],
                transport: transport
            )
        )
        let client = APIClient(registry: registry)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-demo-outbox-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try await Outbox(
            file: directory.appendingPathComponent("outbox.sqlite"),
            client: client,
            configuration: Outbox.Configuration(retryPolicy: RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .milliseconds(400)))
        )
        await outbox.start()
        print("   the backend at port \(port) is down; placing three orders:")
        for sku in ["A-1", "B-2", "C-3"] {
            let entry = try await outbox.enqueue(
                OutboxCall(ordersOffline, .post, "/orders", body: try .json(["sku": sku]), queue: "orders", tags: [RequestTag(sku)])
            )
            print("     \(sku) stored, Idempotency-Key \(entry.idempotencyKey.prefix(8))…")
        }
        try await Task.sleep(for: .milliseconds(400))
        let queued = try await outbox.entries(.pending)
        print(
            "   queued: \(queued.count) pending, the head tried \(queued.first?.attempts ?? 0) times; "
                + "connectivity \(client.connectivity.state)"
        )

        let backend = try await SampleBackend.start(port: port)
        print("   the backend is back; draining:")
        try await outbox.drain()
        let delivered = try await outbox.entries(.delivered)
        for entry in delivered {
            print("     \(entry.tags.map(\.rawValue).joined()) → \(entry.status ?? 0), attempts: \(entry.attempts)")
        }
        print("   counts: \(try await outbox.counts())\n")
        await outbox.close()
        try await backend.shutdown()
    }
}

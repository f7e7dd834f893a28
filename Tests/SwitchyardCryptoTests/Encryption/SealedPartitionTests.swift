import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Testing

@Suite("Cache partitions on disk are keyed digests from the sealing")
struct SealedPartitionTests {
    private static let service: ServiceID = "profiles"
    private static let sealingKey = SymmetricKey(Data(repeating: 0x42, count: 32))

    private static func client(cache: ResponseCache, stages: [any Stage] = [], transport: MockTransport) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(
            Service(service, baseURL: "https://api.test", stages: [CacheStage(cache: cache)] + stages, transport: transport)
        )
        return APIClient(registry: registry)
    }

    private static func options(account: String? = nil) -> CallOptions {
        var options = CallOptions()
        options.cache(.cacheElseNetwork(maxAge: .seconds(3600)))
        options.account = account
        return options
    }

    @Test("a private entry is filed under HMAC-SHA-256 with a key HKDF derives from the sealing key, and found after a restart")
    func keyedPartitionOnDisk() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-partition-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = MockTransport(.json(#"{"name":"ada"}"#))
        let sealing = CacheSealing.aesGCM(key: Self.sealingKey)
        let first = try Self.client(cache: try ResponseCache(directory: directory, sealing: sealing), transport: transport)
        #expect(try await first.send(Self.service, .get, "/me", options: Self.options(account: "ada")).source == .network)

        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".entry") }
        #expect(files.count == 1)
        let opened = try sealing.open(try Data(contentsOf: directory.appendingPathComponent(try #require(files.first))))
        let digestKey = try HKDF.deriveKey(
            inputKeyMaterial: Self.sealingKey,
            salt: Data(),
            info: Data("switchyard cache partition digest v1".utf8),
            outputByteCount: 32
        )
        let expected = "k:" + Digest.hex(try HMAC.authenticationCode(for: Data("account=ada".utf8), using: digestKey))
        #expect(String(decoding: opened, as: UTF8.self).contains(#""rawValue":"\#(expected)""#))

        // A new process over the same directory and key finds Ada's entry; another account does not.
        let restarted = try Self.client(cache: try ResponseCache(directory: directory, sealing: sealing), transport: transport)
        #expect(try await restarted.send(Self.service, .get, "/me", options: Self.options(account: "ada")).source == .diskCache)
        #expect(try await restarted.send(Self.service, .get, "/me", options: Self.options(account: "bob")).source == .network)
    }

    @Test("a sealing without a digest keeps private entries off the disk")
    func sealingWithoutDigest() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-partition-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let aes = CacheSealing.aesGCM(key: Self.sealingKey)
        let sealing = CacheSealing(seal: aes.seal, open: aes.open)
        let client = try Self.client(
            cache: try ResponseCache(directory: directory, sealing: sealing),
            transport: MockTransport(.json("{}"))
        )
        _ = try await client.send(Self.service, .get, "/me", options: Self.options(account: "ada"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".entry") }.isEmpty)
    }

    @Test("a cache outside a signing stage still stores: a signature names the service's key, not a user")
    func signedCallsStillCache() async throws {
        let transport = MockTransport(.json(#"{"name":"x"}"#))
        let ring = try KeyRing(keyID: "k1", key: SymmetricKey(Data(repeating: 7, count: 32)))
        let client = try Self.client(cache: try ResponseCache(), stages: [SigningStage(keyRing: ring)], transport: transport)
        #expect(try await client.send(Self.service, .get, "/catalog", options: Self.options()).source == .network)
        #expect(try await client.send(Self.service, .get, "/catalog", options: Self.options()).source == .memoryCache)
        #expect(transport.requests.count == 1)
    }
}

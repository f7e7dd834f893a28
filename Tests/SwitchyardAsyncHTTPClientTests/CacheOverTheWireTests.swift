import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCrypto
import SwitchyardSampleBackend
import SwitchyardTesting
import Testing

@Suite("Response cache against the sample backend")
struct CacheOverTheWireTests {
    static let control: ServiceID = "cached"

    @Test("revalidation: the sample backend's ETag comes back as If-None-Match, and its 304 serves the stored body")
    func revalidation() async throws {
        let backend = try await SampleBackend.start()
        let cache = try ResponseCache()
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(
            Service(
                Self.control,
                baseURL: backend.baseURL,
                stages: [ValidationStage(), CacheStage(cache: cache, defaultPolicy: .revalidate)],
                transport: AsyncHTTPClientTransport()
            )
        )
        let client = APIClient(registry: registry)
        struct Version: Decodable, Sendable, Equatable {
            let key: String
            let version: Int
        }
        let first = try await client.send(Self.control, .get, "/etag/{key}", pathParameters: ["key": "doc"], as: Version.self)
        #expect(first.source == .network)
        let second = try await client.send(Self.control, .get, "/etag/{key}", pathParameters: ["key": "doc"], as: Version.self)
        #expect(second.source == .revalidated)
        #expect(second.status == .ok)
        #expect(second.value == Version(key: "doc", version: 1))
        #expect(backend.hits("etag/doc") == 2)
        try await backend.shutdown()
    }

    @Test("the disk tier sealed with AES-GCM keeps no plaintext on disk, and another key's cache drops the entries")
    func sealedAtRest() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-sealed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = CacheKey(serviceID: "vault", endpoint: "note", identity: "GET /notes/1", partition: .public)
        let secret = Data(#"{"text":"the combination is 4-8-15-16-23-42"}"#.utf8)
        let sealed = try ResponseCache(directory: directory, sealing: .aesGCM(key: SymmetricKey(SampleBackend.vaultKey)))
        sealed.store(CachedResponse(key: key, status: 200, headerFields: [.contentType: "application/json"], body: secret))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".entry") }
        #expect(files.count == 1)
        let onDisk = try Data(contentsOf: directory.appendingPathComponent(files[0]))
        #expect(!String(decoding: onDisk, as: UTF8.self).contains("combination"))
        #expect(
            try ResponseCache(directory: directory, sealing: .aesGCM(key: SymmetricKey(SampleBackend.vaultKey))).entry(for: key)?.entry.body
                == secret
        )
        let wrongKey = try ResponseCache(directory: directory, sealing: .aesGCM(key: SymmetricKey(SampleBackend.shopKey)))
        #expect(wrongKey.entry(for: key) == nil)
        #expect(wrongKey.corruptEntriesDropped == 1)
    }
}

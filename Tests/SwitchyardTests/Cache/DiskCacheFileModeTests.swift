import Foundation
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Response cache: files private to the user")
struct DiskCacheFileModeTests {
    @Test("the disk tier's directory is created 0700 and its entry files 0600")
    func directoryAndEntriesArePrivate() async throws {
        useTheUsualUmask()
        let directory = CacheStageTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (transport, _) = CacheStageTests.countingTransport()
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache(directory: directory))], transport: transport)
        let policy = CachePolicy.cacheElseNetwork(maxAge: .seconds(60))
        _ = try await client.send(.users, .get, "/a", options: CacheStageTests.options(policy, token: nil))
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(entries.count == 1 && entries.allSatisfy { $0.hasSuffix(".entry") })
        #expect(try permissions(of: directory) == 0o700)
        for name in entries { #expect(try permissions(of: directory.appendingPathComponent(name)) == 0o600) }
    }

    @Test("an existing cache directory is tightened to 0700 when a cache opens it")
    func existingDirectoryIsTightened() throws {
        useTheUsualUmask()
        let directory = CacheStageTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(try permissions(of: directory) == 0o755)
        _ = try ResponseCache(directory: directory)
        #expect(try permissions(of: directory) == 0o700)
    }
}

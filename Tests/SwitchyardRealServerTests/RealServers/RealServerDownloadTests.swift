import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTestSupport
import Testing

@Suite(
    "Downloads from nginx: broken off by a proxy and resumed, gzip_static assets, deadlines, a decompression bomb, a corrupt gzip body",
    .enabled(if: RealServers.enabled, "nginx, gunicorn and httpbin are needed: apt-get install nginx; pip install httpbin gunicorn"),
    .timeLimit(.minutes(3))
)
struct RealServerDownloadTests {
    private func destination() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-real-\(UUID().uuidString)")
    }

    @Test(
        "a 50 MB file broken off every 20 MB by a proxy is resumed with If-Range and its SHA-256 checked",
        arguments: RealServers.transports
    )
    func brokenAndResumed(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.breaking, transport: transport)
        let target = destination()
        defer { try? FileManager.default.removeItem(at: target) }
        let download = DownloadOptions(maximumResumes: 5, checksum: .sha256(hex: servers.blobSHA256))
        let file = try await client.send(
            DynamicEndpoint<Response>(service: .utility, method: .get, path: "/blob.bin").downloading(to: target, options: download),
            options: CallOptions(timeout: .seconds(60))
        )
        #expect(file.value.byteCount == Int64(servers.blobSize))
        #expect(file.value.resumes >= 2)
        #expect(file.value.checksum == servers.blobSHA256)
    }

    @Test("a gzip_static asset downloads as the file's own bytes, and resumes by bytes of the file", arguments: RealServers.transports)
    func gzipStatic(transport: String) async throws {
        let servers = try await RealServers.require()
        for (base, path) in [(servers.nginx, "/static/app.js"), (servers.breaking, "/cut/1000000/static/app.js")] {
            let client = try RealServers.client(base, transport: transport)
            let target = destination()
            defer { try? FileManager.default.removeItem(at: target) }
            let download = DownloadOptions(maximumResumes: 8, checksum: .sha256(hex: servers.assetSHA256))
            let file = try await client.send(
                DynamicEndpoint<Response>(service: .utility, method: .get, path: path).downloading(to: target, options: download)
            )
            #expect(file.value.byteCount == Int64(servers.assetSize), "\(path)")
            #expect(file.value.checksum == servers.assetSHA256, "\(path)")
        }
    }

    @Test(
        "a download that cannot finish before the call's deadline ends as .timeout on time and keeps its partial file",
        arguments: RealServers.transports
    )
    func deadline(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.nginx, transport: transport)
        let target = destination()
        defer { try? FileManager.default.removeItem(at: target) }
        let start = ContinuousClock.now
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(
                DynamicEndpoint<Response>(service: .utility, method: .get, path: "/slow/blob.bin").downloading(
                    to: target,
                    options: DownloadOptions(maximumResumes: 10)
                ),
                options: CallOptions(deadline: .seconds(2))
            )
        }
        let elapsed = ContinuousClock.now - start
        #expect(error?.code == .timeout)
        // With ten resumes allowed, a loop that restarted after the deadline would run about 22 s (the
        // whole file takes 50 s at nginx's 1 MB/s); a loaded machine may add seconds, not tens of them.
        #expect(elapsed < .seconds(12), "ended after \(elapsed)")
        #expect(!FileManager.default.fileExists(atPath: target.path), "no partial file is presented as complete")
    }

    @Test(
        "a download nginx gzip-encodes anyway, decoding past the 64 MiB limit, is refused and leaves no partial file",
        arguments: RealServers.transports
    )
    func decompressionBomb(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.nginx, transport: transport)
        let directory = destination()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(
                DynamicEndpoint<Response>(service: .utility, method: .get, path: "/bomb/zeros.bin").downloading(
                    to: directory.appendingPathComponent("zeros.bin")
                )
            )
        }
        #expect(error?.code == .limitExceeded)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    @Test(
        "a body nginx labels gzip that does not inflate is .invalidResponse, in memory and as a download",
        arguments: RealServers.transports
    )
    func corruptGzip(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.nginx, transport: transport)
        let memory = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.utility, .get, "/bomb/corrupt.txt") }
        #expect(memory?.code == .invalidResponse, "\(String(describing: memory))")
        let directory = destination()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let download = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(
                DynamicEndpoint<Response>(service: .utility, method: .get, path: "/bomb/corrupt.txt").downloading(
                    to: directory.appendingPathComponent("corrupt.txt")
                )
            )
        }
        #expect(download?.code == .invalidResponse, "\(String(describing: download))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }
}

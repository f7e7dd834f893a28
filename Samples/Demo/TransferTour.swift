import Foundation
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCrypto
import SwitchyardMultipart
import SwitchyardSampleBackend

/// Step 13 of the demo: module 6, `files` — a streamed multipart upload and a download to a file
/// that the backend breaks off mid-way, resumed with `Range`/`If-Range` and checked against its
/// SHA-256, both with the terminal progress accessory.
enum TransferTour {
    static func register(
        in registry: ServiceRegistry,
        backend: SampleBackend,
        transport: AsyncHTTPClientTransport,
        inspection: DemoInspection
    ) throws {
        try registry.register(
            Service(
                .files,
                baseURLs: [.develop: backend.baseURL, .release: "https://files.example.com"],
                defaults: inspection.defaults(ServiceDefaults(timeout: .seconds(120))),
                stages: inspection.stages([AccessoryStage([TerminalProgressAccessory()])]),
                transport: transport
            )
        )
    }

    static func run(client: APIClient) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let video = directory.appendingPathComponent("holiday.mp4")
        try SampleBlob.bytes(0..<3_000_000, version: 2).write(to: video)
        var form = MultipartBody()
        form.append(field: "title", "Holiday 2026")
        try form.append(fileAt: video, field: "video")
        print("   uploading a 3 MB video as multipart/form-data, streamed from disk:")
        let report = try await client.send(.files, .post, "/files/upload", body: try form.streamedRequestBody(), as: UploadReport.self)
        for part in report.value.parts ?? [] {
            print(
                "   the backend received '\(part.name ?? "?")'\(part.filename.map { " (\($0), \(part.type ?? "no type"))" } ?? ""): \(part.size) bytes, SHA-256 \(part.sha256.prefix(16))…"
            )
        }

        let size: Int64 = 24_000_000
        let expected = Digest.hex(
            { () -> Data in
                let hasher = SHA256Hasher()
                var offset: Int64 = 0
                while offset < size {
                    let end = min(size, offset + 4_000_000)
                    SampleBlob.bytes(offset..<end).withUnsafeBytes { hasher.update($0) }
                    offset = end
                }
                return hasher.finalize()
            }()
        )
        print("\n   downloading 24 MB to a file; the backend drops the connection at 10 MB:")
        let destination = directory.appendingPathComponent("installer.bin")
        let file = try await client.send(
            DynamicEndpoint<Response>(service: .files, method: .get, path: "/files/blob/\(size)", parameters: ["dropAt": 10_000_000])
                .downloading(to: destination, options: DownloadOptions(checksum: .sha256(hex: expected)))
        )
        try await Task.sleep(for: .milliseconds(50))  // let the accessory's last lines print first
        print(
            "   \(file.value.url.lastPathComponent): \(file.value.byteCount) bytes after \(file.value.resumes) resume, SHA-256 \(file.value.checksum?.prefix(16) ?? "?")… verified\n"
        )
    }

    /// What the backend reports about an upload.
    struct UploadReport: Decodable, Sendable {
        struct Part: Decodable, Sendable {
            let name: String?
            let filename: String?
            let type: String?
            let size: Int
            let sha256: String
        }

        let bytes: Int
        let parts: [Part]?
    }
}

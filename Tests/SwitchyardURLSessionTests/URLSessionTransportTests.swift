import Foundation
import Switchyard
import SwitchyardCrypto
import SwitchyardMultipart
import SwitchyardSampleBackend
import SwitchyardTestSupport
import SwitchyardTesting
import SwitchyardURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession transport: the conformance suite on its own loopback server, and a streamed
/// multipart upload and a download through the sample backend.
@Suite("URLSessionTransport")
struct URLSessionTransportTests {
    @Test("passes every case of the conformance suite on the suite's own server")
    func conformance() async throws {
        let transport = URLSessionTransport(maximumResponseBodySize: 4 << 20)
        let outcomes = await TransportConformance(responseLimit: 4 << 20).run(transport)
        #expect(outcomes.count == TransportConformance.caseNames.count)
        for outcome in outcomes { #expect(outcome.passed, "\(outcome)") }
        // What the streaming cases measured (intake of a stalled consumer, time to close), for the record.
        for outcome in outcomes where outcome.name.hasPrefix("stream-") { print(outcome) }
    }

    @Test("over a session of your own (completion handlers) a streamed call is refused, not collected whole")
    func ownSessionRefusesStreamedCalls() async throws {
        let transport = URLSessionTransport(session: URLSession(configuration: .ephemeral))
        var context = CallContext(serviceID: "streams")
        context.streamBufferLimit = 64 << 10
        let request = try #require(Request(method: .get, url: URL(string: "http://127.0.0.1:1/stream")!))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await transport.send(request, context: context) }
        #expect(error?.code == .unsupportedBody)
        #expect(error?.message.contains("sharedSession") == true)
    }

    @Test("a streamed answer quieter than the call's timeout between chunks is not cut off once its head arrived")
    func quietStreamOutlivesTheTimeout() async throws {
        let backend = try await SampleBackend.start()
        var context = CallContext(serviceID: "streams")
        context.streamBufferLimit = 64 << 10
        context.timeout = .seconds(2)
        // Two 256 KiB chunks 4.5 s apart: longer than the timeout, and than the session's own idle
        // limit the transport derives from it (whole seconds, 2 past the timeout).
        let size = 512 << 10
        let request = try #require(Request(method: .get, url: URL(string: "\(backend.baseURL)/files/blob/\(size)?pace=4500")!))
        let response = try await URLSessionTransport().send(request, context: context)
        var total = 0
        for try await chunk in try #require(response.body.stream) { total += chunk.count }
        #expect(total == size)
        try await backend.shutdown()
    }

    @Test("keeps at most 64 MiB in memory unless told otherwise")
    func defaultLimit() {
        #expect(URLSessionTransport().maximumResponseBodySize == 64 << 20)
    }

    /// What the backend reports about an upload.
    struct UploadReport: Decodable {
        struct Part: Decodable {
            let name: String?
            let sha256: String
        }

        let parts: [Part]?
    }

    @Test("uploads a streamed multipart body and downloads to a file")
    func transfers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-urlsession-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("photo.png")
        let bytes = Data((0..<1_500_000).map { [0x0D, 0x0A, 0x2D, UInt8(truncatingIfNeeded: $0 >> 3), 0xFF][$0 % 5] })
        try bytes.write(to: file)
        var form = MultipartBody()
        form.append(field: "note", "via URLSession")
        try form.append(fileAt: file, field: "photo")
        let destination = directory.appendingPathComponent("blob.bin")
        let backend = try await SampleBackend.start()
        defer { Task { try? await backend.shutdown() } }
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try registry.register(Service(.utility, baseURL: backend.baseURL, transport: URLSessionTransport()))
        let client = APIClient(registry: registry)
        let report = try await client.send(.utility, .post, "/files/upload", body: try form.streamedRequestBody(), as: UploadReport.self)
            .value
        #expect(report.parts?.map(\.name) == ["note", "photo"] && report.parts?.last?.sha256 == Digest.hex(Digest.sha256(bytes)))
        let result = try await client.send(
            DynamicEndpoint<Response>(service: .utility, method: .get, path: "/files/blob/2000000").downloading(to: destination)
        )
        #expect(result.value.byteCount == 2_000_000)
        #expect(try Data(contentsOf: destination) == SampleBlob.bytes(0..<2_000_000))
    }
}

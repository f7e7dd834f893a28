import AsyncHTTPClient
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend
import SwitchyardTestSupport
import SwitchyardURLSession
import Testing

/// The two transports, by name, for parameterised tests.
private func transport(_ name: String) -> any Transport {
    name == "URLSession" ? URLSessionTransport() : AsyncHTTPClientTransport()
}

/// Content coding through a client and over clients of every kind, beyond the conformance suite.
@Suite("Content coding over the wire", .timeLimit(.minutes(1)))
struct ContentCodingOverTheWireTests {
    /// Runs `body` with a client whose `utility` service is a sample backend over the named transport.
    private func withClient(
        _ name: String,
        defaults: ServiceDefaults = ServiceDefaults(),
        _ body: (SampleBackend, APIClient) async throws -> Void
    ) async throws {
        let backend = try await SampleBackend.start()
        do {
            let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
            try registry.register(Service(.utility, baseURL: backend.baseURL, defaults: defaults, transport: transport(name)))
            try await body(backend, APIClient(registry: registry))
        } catch {
            try? await backend.shutdown()
            throw error
        }
        try await backend.shutdown()
    }

    @Test(
        "a download asks for the identity coding even when the service asks for gzip; a coding the call names is decoded and never resumed",
        arguments: ["AsyncHTTPClient", "URLSession"]
    )
    func downloadCoding(_ name: String) async throws {
        try await TransferTests.withDirectory { directory in
            let defaults = ServiceDefaults(headerFields: [.acceptEncoding: "gzip"])
            try await withClient(name, defaults: defaults) { _, client in
                let echoed = directory.appendingPathComponent("echo.json")
                _ = try await client.send(DynamicEndpoint<Response>(service: .utility, method: .get, path: "/echo").downloading(to: echoed))
                let report = try JSONDecoder().decode(EchoReport.self, from: Data(contentsOf: echoed))
                #expect(report.headers["accept-encoding"] == "identity")

                let text = directory.appendingPathComponent("text.txt")
                let plain = try await client.send(
                    DynamicEndpoint<Response>(service: .utility, method: .get, path: "/precompressed").downloading(to: text)
                )
                #expect(plain.headerFields[.contentEncoding] == nil && plain.headerFields[.eTag] == "\"precompressed-identity\"")
                let expected = try Data(contentsOf: text)
                #expect(expected.count == 226_000)

                let gzipped = try await client.send(
                    DynamicEndpoint<Response>(
                        service: .utility,
                        method: .get,
                        path: "/precompressed",
                        headerFields: [.acceptEncoding: "gzip"]
                    ).downloading(to: text)
                )
                #expect(gzipped.headerFields[.contentEncoding] == nil && gzipped.headerFields[.eTag] == "\"precompressed-gzip\"")
                #expect(gzipped.headerFields[.contentLength] == "226000" && gzipped.value.byteCount == 226_000)
                #expect(try Data(contentsOf: text) == expected)
                #expect(!FileManager.default.fileExists(atPath: text.path + ".partial.resume"))
            }
        }
    }

    @Test("an AsyncHTTPClient client that does not decompress asks for identity and hands an encoded body over as sent")
    func clientWithoutDecompression() async throws {
        let backend = try await SampleBackend.start()
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: HTTPClient.Configuration())
        do {
            let transport = AsyncHTTPClientTransport(client: client)
            let context = CallContext(serviceID: .utility, endpointName: "coding")
            let echo = try await transport.send(Request(method: .get, url: URL(string: backend.baseURL + "/echo")!)!, context: context)
            #expect(try JSONDecoder().decode(EchoReport.self, from: echo.bytes).headers["accept-encoding"] == "identity")
            let url = URL(string: backend.baseURL + "/precompressed?coding=gzip")!
            let encoded = try await transport.send(Request(method: .get, url: url)!, context: context)
            #expect(encoded.headerFields[.contentEncoding] == "gzip")
            #expect(encoded.headerFields[.contentLength] == String(encoded.body.count) && encoded.bytes.prefix(2) == Data([0x1F, 0x8B]))
        } catch {
            try? await client.shutdown()
            try? await backend.shutdown()
            throw error
        }
        try await client.shutdown()
        try await backend.shutdown()
    }
}

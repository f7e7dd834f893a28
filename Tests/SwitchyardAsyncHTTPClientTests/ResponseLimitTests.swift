import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend
import SwitchyardTestSupport
import SwitchyardURLSession
import Testing

@Suite("Response limits: both transports refuse oversized and decompression-bomb bodies alike")
struct ResponseLimitTests {
    private static let limit = 1 << 20

    private func transport(_ name: String) -> any Transport {
        name == "URLSession"
            ? URLSessionTransport(maximumResponseBodySize: Self.limit)
            : AsyncHTTPClientTransport(configuration: .init(maximumResponseBodySize: Self.limit))
    }

    private func failure(_ name: String, _ path: String) async throws -> SwitchyardError? {
        let backend = try await SampleBackend.start()
        defer { Task { try? await backend.shutdown() } }
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try registry.register(Service(.utility, baseURL: backend.baseURL, transport: transport(name)))
        return await #expect(throws: SwitchyardError.self) { _ = try await APIClient(registry: registry).send(.utility, .get, path) }
    }

    @Test("an oversized body is limitExceeded, stating the limit and the size", arguments: ["AsyncHTTPClient", "URLSession"])
    func oversized(transport: String) async throws {
        let error = try await failure(transport, "/files/blob/\(Self.limit + 10)")
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("limit of \(Self.limit) bytes") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("\(Self.limit + 10) bytes") == true, "\(error?.message ?? "")")
    }

    @Test("a gzip body that inflates past the limit is limitExceeded once decompressed", arguments: ["AsyncHTTPClient", "URLSession"])
    func decompressionBomb(transport: String) async throws {
        let error = try await failure(transport, "/gzip-bomb")
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("decompressed") == true, "\(error?.message ?? "")")
    }

    @Test("the AsyncHTTPClient transport keeps at most 64 MiB in memory unless told otherwise")
    func defaultLimit() {
        #expect(AsyncHTTPClientTransport().configuration.maximumResponseBodySize == 64 << 20)
        #expect(AsyncHTTPClientTransport.decompressionLimit == 64 << 20)
    }
}

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

/// Authentication challenges and status lines through a client, beyond the conformance suite.
@Suite("Challenges and status lines over the wire", .timeLimit(.minutes(1)))
struct StatusLineOverTheWireTests {
    /// Runs `body` with a client whose `utility` service is a sample backend over the named transport.
    private func withClient(_ name: String, _ body: (SampleBackend, APIClient) async throws -> Void) async throws {
        let backend = try await SampleBackend.start()
        do {
            let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
            try registry.register(Service(.utility, baseURL: backend.baseURL, transport: transport(name)))
            try await body(backend, APIClient(registry: registry))
        } catch {
            try? await backend.shutdown()
            throw error
        }
        try await backend.shutdown()
    }

    @Test(
        "a 401 with a Basic challenge ends the call with httpStatus 401, not by its timeout",
        arguments: ["AsyncHTTPClient", "URLSession"]
    )
    func basicChallengeThroughTheClient(_ name: String) async throws {
        try await withClient(name) { _, client in
            do throws(SwitchyardError) {
                _ = try await client.send(.utility, .get, "/auth/basic", options: CallOptions(timeout: .seconds(20)))
                Issue.record("a 401 was accepted")
            } catch {
                #expect(error.code == .httpStatus && error.status?.code == 401)
                #expect(error.response?.headerFields[.wwwAuthenticate]?.hasPrefix("Basic") == true)
                #expect(error.message.contains("401 Unauthorized"), "\(error.message)")
            }
            // The right credential, sent by the call, is what authenticates — never the transport.
            let accepted = try await client.send(
                .utility,
                .get,
                "/auth/basic",
                headerFields: [.authorization: "Basic c3dpdGNoeWFyZDpzZWNyZXQ="]
            )
            #expect(accepted.status.code == 200)
        }
    }

    @Test("both transports report the standard phrase of a known code whatever the server wrote, and none for another code")
    func reasonPhrases() async throws {
        let backend = try await SampleBackend.start()
        let context = CallContext(serviceID: .utility, endpointName: "reason")
        var phrases: [String] = []
        for target in ["/status/503?reason=Back%20Soon", "/status/299?reason=Custom%20Thing"] {
            let request = Request(method: .get, url: URL(string: backend.baseURL + target)!)!
            for transport in [AsyncHTTPClientTransport(), URLSessionTransport()] as [any Transport] {
                let response = try? await transport.send(request, context: context)
                phrases.append("\(transport.name) \(response?.status.code ?? 0) \(response?.status.reasonPhrase ?? "-")")
            }
        }
        try await backend.shutdown()
        #expect(
            phrases == [
                "AsyncHTTPClient 503 Service Unavailable", "URLSession 503 Service Unavailable",
                "AsyncHTTPClient 299 ", "URLSession 299 ",
            ]
        )
    }
}

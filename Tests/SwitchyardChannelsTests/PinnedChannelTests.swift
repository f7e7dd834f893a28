import Foundation
import NIOSSL
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardChannels
import SwitchyardTestSupport
import Testing

/// The Python `websockets` server over TLS with a certificate `openssl` made for this run, started
/// once for the test process.
private let tlsServer = Task { () throws -> (port: Int, certificate: TestCertificate) in
    let certificate = try await TestCertificate.make()
    // The launch blocks until the server is ready: on a thread of its own, not the concurrency pool.
    let line = try await offThePool {
        try PythonSupervisor.launch("Channels/ws_server.py", arguments: ["--tls", certificate.certificatePath, certificate.keyPath]).get()
    }
    struct Ready: Decodable { let port: Int }
    return (try JSONDecoder().decode(Ready.self, from: line).port, certificate)
}

/// A client whose service `live` at `baseURL` has an AsyncHTTPClient transport pinned to `pins`,
/// trusting the test certificate.
private func pinnedClient(_ baseURL: String, pins: [String], certificate: TestCertificate) throws -> APIClient {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .file(certificate.certificatePath)
    let transport = AsyncHTTPClientTransport(pinning: .init(pins: try PublicKeyPins(pins), tlsConfiguration: tls))
    return try ChannelServers.client(baseURL, transport: transport)
}

@Suite(
    "Channels of a pinned service: the transport's public-key pins hold for wss (Python websockets over TLS)",
    .enabled(if: ChannelServers.enabled, "python3 with websockets is needed: pip install websockets"),
    .timeLimit(.minutes(1))
)
struct PinnedChannelTests {
    @Test("a server presenting the pinned key opens the channel over wss, addressed by its host name")
    func pinnedKeyAccepted() async throws {
        let (port, certificate) = try await tlsServer.value
        let client = try pinnedClient("https://localhost:\(port)", pins: [certificate.pin], certificate: certificate)
        let channel = try await client.channel(endpoint("/echo"))
        var messages = channel.messages.makeAsyncIterator()
        _ = try await messages.next()
        try await channel.send(.text("over tls"))
        #expect(try await messages.next() == .text("over tls"))
        await channel.close()
    }

    @Test("a trusted certificate whose key is not pinned is refused with .pinning, naming the service")
    func mismatchRefused() async throws {
        let (port, certificate) = try await tlsServer.value
        let stranger = "sha256/" + Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let client = try pinnedClient("https://localhost:\(port)", pins: [stranger], certificate: certificate)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.channel(endpoint("/echo")) }
        #expect(error?.code == .pinning)
        #expect(error?.message.contains("service 'live'") == true)
        #expect(error?.message.contains(certificate.pin) == true)
    }

    @Test("an untrusted certificate fails the TLS handshake with .transport, even when its key is pinned")
    func untrustedRefused() async throws {
        let (port, certificate) = try await tlsServer.value
        let transport = AsyncHTTPClientTransport(pinning: .init(pins: try PublicKeyPins([certificate.pin])))
        let client = try ChannelServers.client("https://localhost:\(port)", transport: transport)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.channel(endpoint("/echo")) }
        #expect(error?.code == .transport)
    }

    @Test("a pinned service opens no plain ws channel")
    func plainRefused() async throws {
        let (_, certificate) = try await tlsServer.value
        let client = try pinnedClient(try await ChannelServers.plainURL(), pins: [certificate.pin], certificate: certificate)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.channel(endpoint("/echo")) }
        #expect(error?.code == .invalidRequest)
    }
}

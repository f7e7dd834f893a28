import Foundation
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCrypto
import SwitchyardSampleBackend
import SwitchyardTesting
import Testing

/// The demo's modules (``SampleModules``, which the demo registers too) recorded against the sample
/// backend, the backend stopped, and the same calls replayed: the stages outside each cut run for
/// real and decode the same values.
@Suite("Replay: the demo's modules without the backend")
struct DemoModulesReplayTests {
    typealias F = ReplayFixture

    /// The encrypted modules are cut outside their encryption stage (plaintext), the others on the wire.
    static func cut(for service: ServiceID) -> PipelineCut {
        [SampleModules.vault, SampleModules.shop].contains(service) ? .outside(.encryption) : .wire
    }

    /// The shop's `ts` common parameter changes every second.
    static let ignored: Set<String> = ["ts"]

    struct User: Decodable, Sendable, Equatable {
        let id: Int
        let name: String
        let nickname: String?
        let email: String?
    }

    struct Session: Decodable, Sendable, Equatable {
        let user: Int
        let expiresIn: Int
    }

    struct Note: Decodable, Sendable, Equatable {
        let id: Int
        let text: String
        let length: Int?
        let pinned: Bool?
    }

    struct Order: Decodable, Sendable, Equatable {
        let id: Int
        let status: String
        let coupon: String?
    }

    /// Makes the demo's kinds of calls on every module and describes each decoded output (or typed
    /// error). `backend` is the live one while recording, to expire the shop's token halfway.
    static func tour(_ client: APIClient, backend: SampleBackend?) async throws -> [String] {
        var outputs: [String] = []
        for id in [1, 3] {
            let user = try await client.send(SampleModules.users, .get, "/users/{id}", pathParameters: ["id": "\(id)"], as: User.self)
            outputs.append("\(user.value)")
        }
        outputs.append(
            "\(try await client.send(SampleModules.users, .post, "/users", parameters: ["name": "Ada Byron"], as: User.self).value)"
        )
        outputs.append("\(try await client.send(SampleModules.users, .get, "/session", as: Session.self).value)")
        do {
            _ = try await client.send(SampleModules.users, .get, "/users/{id}", pathParameters: ["id": "99"], as: User.self)
            outputs.append("unexpected success")
        } catch {
            outputs.append("\(error.code): \(error.message)")
        }
        let note = try await client.send(SampleModules.vault, .post, "/notes", parameters: ["text": "a replayed note"], as: Note.self)
        outputs.append("\(note.value)")
        let stored = try await client.send(SampleModules.vault, .get, "/notes/{id}", pathParameters: ["id": "3"], as: Note.self)
        outputs.append("\(stored.value)")
        let lines: [ParameterValue] = [["sku": "SKU-1", "quantity": 2, "gift_note": nil]]
        outputs.append(
            "\(try await client.send(SampleModules.shop, .post, "/orders", parameters: ["lines": .array(lines)], as: Order.self).value)"
        )
        outputs.append(
            "\(try await client.send(SampleModules.shop, .get, "/orders/{id}", pathParameters: ["id": "1"], as: Order.self).value)"
        )
        backend?.expireShopToken()
        let refreshed = try await client.send(SampleModules.shop, .get, "/orders/{id}", pathParameters: ["id": "2"], as: Order.self)
        outputs.append("\(refreshed.value) after a token refresh")
        let flaky = try await client.send(SampleModules.control, .get, "/flaky/replay/2")
        // Two 503s retried by the stage outside the wire cut, then a 200: replayed as that sequence.
        // (`attempts` counts transport sends, which a replay makes none of: it is not an output here.)
        outputs.append("flaky \(flaky.status.code)")
        return outputs
    }

    /// Records the tour into `directory`; returns its outputs.
    static func record(into directory: URL) async throws -> [String] {
        let backend = try await SampleBackend.start()
        do {
            let recorder = FixtureRecorder(directory: directory, ignoring: ignored)
            let registry = F.registry()
            try SampleModules.register(
                in: registry,
                backend: backend,
                transport: AsyncHTTPClientTransport(),
                adjust: {
                    try recorder.record($0, at: cut(for: $0.id))
                }
            )
            let outputs = try await tour(APIClient(registry: registry), backend: backend)
            try recorder.save()
            try await backend.shutdown()
            return outputs
        } catch {
            try? await backend.shutdown()
            throw error
        }
    }

    /// A client replaying `directory`, its modules' base URL a port nothing listens on any more.
    static func replaying(_ directory: URL) async throws -> APIClient {
        let stopped = try await SampleBackend.start()
        try await stopped.shutdown()
        let fixtures = Fixtures(directory: directory, ignoring: ignored)
        let registry = F.registry()
        try SampleModules.register(
            in: registry,
            backend: stopped,
            transport: AsyncHTTPClientTransport(),
            adjust: {
                try fixtures.replay($0, at: cut(for: $0.id))
            }
        )
        return APIClient(registry: registry)
    }

    @Test("recorded against the backend, replayed after it stopped: every decoded output is the same")
    func replayEqualsRecording() async throws {
        let directory = F.directory()
        defer { F.remove(directory) }
        let recorded = try await Self.record(into: directory)
        let replayed = try await Self.tour(try await Self.replaying(directory), backend: nil)
        #expect(recorded.count == 11)
        #expect(replayed == recorded)
        #expect(recorded.contains("flaky 200"))
        #expect(recorded.contains { $0.hasPrefix("business: ") })
        #expect(recorded.contains { $0.hasSuffix("after a token refresh") })
        // The retried call replayed as its recorded sequence: two 503s, then the 200.
        let control = try F.file(in: directory, service: SampleModules.control)
        #expect(control.components(separatedBy: #""status" : 503"#).count == 3)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files == ["control.json", "shop-auth.json", "shop.json", "users.json", "vault.json"])
    }

    @Test("recording the demo's modules twice writes the same bytes, but for the shop, whose answers echo the time")
    func stableAcrossRuns() async throws {
        let first = F.directory()
        let second = F.directory()
        defer {
            F.remove(first)
            F.remove(second)
        }
        _ = try await Self.record(into: first)
        _ = try await Self.record(into: second)
        for name in ["control.json", "shop-auth.json", "users.json", "vault.json"] {
            let one = try Data(contentsOf: first.appendingPathComponent(name))
            let two = try Data(contentsOf: second.appendingPathComponent(name))
            #expect(one == two, "\(name) differs between two recordings")
        }
    }

    @Test("the encrypted modules' fixtures hold plaintext, recorded outside their encryption stage")
    func encryptedModulesFromPlaintext() async throws {
        let directory = F.directory()
        defer { F.remove(directory) }
        _ = try await Self.record(into: directory)
        let vault = try F.file(in: directory, service: SampleModules.vault)
        #expect(vault.contains(#""cut" : "outside Encryption""#))
        #expect(vault.contains(#""text" : "a replayed note""#))
        #expect(!vault.contains(#""base64""#))
        let shop = try F.file(in: directory, service: SampleModules.shop)
        #expect(shop.contains(#""cut" : "outside Encryption""#) && shop.contains(#""sku" : "SKU-1""#))
        #expect(shop.contains(#""status" : 401"#))  // the expired token's answer, first of its sequence
        #expect(!shop.contains(#""base64""#))
        // The backend's response signature reaches the cut (signing is inside it), its value hidden.
        let signatures = shop.split(separator: "\n").filter { $0.contains("x-switchyard-signature") }
        #expect(!signatures.isEmpty && signatures.allSatisfy { $0.hasSuffix(#": <redacted>","#) || $0.hasSuffix(#": <redacted>""#) })
    }

    @Test("the fixture files hold no token, key or password of the demo")
    func noSecretsInFiles() async throws {
        let directory = F.directory()
        defer { F.remove(directory) }
        _ = try await Self.record(into: directory)
        let secrets = [
            "demo-token", "shop-token", SampleBackend.shopRefreshToken, String(decoding: SampleBackend.vaultKey, as: UTF8.self),
            String(decoding: SampleBackend.shopKey, as: UTF8.self), String(decoding: SampleBackend.shopSigningKey, as: UTF8.self),
        ]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            for secret in secrets { #expect(!text.contains(secret), "\(name) holds \(secret)") }
        }
        let users = try F.file(in: directory, service: SampleModules.users)
        #expect(users.contains("authorization: <redacted>"))
    }

    @Test("a call the recording never made fails with noFixture naming the nearest fixture")
    func unmatchedCall() async throws {
        let directory = F.directory()
        defer { F.remove(directory) }
        _ = try await Self.record(into: directory)
        let client = try await Self.replaying(directory)
        let error = try await #require(throws: SwitchyardError.self) {
            _ = try await client.send(SampleModules.users, .get, "/users/{id}", pathParameters: ["id": "2"], as: User.self)
        }
        #expect(error.code == .noFixture)
        #expect(error.message.contains("no recorded answer for GET /users-api/users/2 (GET /users/{id}) in users.json"))
        #expect(error.message.contains("nearest fixture: entry"))
        #expect(error.message.contains("differs in path"))
    }

    @Test("a wire recording of the vault holds ciphertext only, which a replay can never open or match")
    func vaultOnTheWire() async throws {
        let directory = F.directory()
        defer { F.remove(directory) }
        let backend = try await SampleBackend.start()
        let recorder = FixtureRecorder(directory: directory)
        let registry = F.registry()
        try SampleModules.register(
            in: registry,
            backend: backend,
            transport: AsyncHTTPClientTransport(),
            adjust: {
                $0.id == SampleModules.vault ? try recorder.record($0, at: .wire) : $0
            }
        )
        let live = APIClient(registry: registry)
        _ = try await live.send(SampleModules.vault, .post, "/notes", parameters: ["text": "a replayed note"], as: Note.self)
        _ = try await live.send(SampleModules.vault, .get, "/notes/{id}", pathParameters: ["id": "3"], as: Note.self)
        try recorder.save()
        try await backend.shutdown()

        let vault = try F.file(in: directory, service: SampleModules.vault)
        #expect(vault.contains(#""cut" : "wire""#) && vault.contains(#""base64""#))
        #expect(!vault.contains("replayed note") && !vault.contains("Note 3") && !vault.contains(#""json""#) && !vault.contains(#""text""#))

        let fixtures = Fixtures(directory: directory)
        let replay = F.registry()
        try SampleModules.register(
            in: replay,
            backend: backend,
            transport: AsyncHTTPClientTransport(),
            adjust: {
                $0.id == SampleModules.vault ? try fixtures.replay($0, at: .wire) : $0
            }
        )
        let client = APIClient(registry: replay)
        // The recorded answer is bound to the recorded request's fresh nonce: the decryption, which
        // runs for real outside the cut, refuses it.
        let opened = try await #require(throws: SwitchyardError.self) {
            _ = try await client.send(SampleModules.vault, .get, "/notes/{id}", pathParameters: ["id": "3"], as: Note.self)
        }
        #expect(opened.stage == .encryption)
        // A sealed request body carries a fresh nonce every time: it never matches a wire recording.
        let matched = try await #require(throws: SwitchyardError.self) {
            _ = try await client.send(SampleModules.vault, .post, "/notes", parameters: ["text": "a replayed note"], as: Note.self)
        }
        #expect(matched.code == .noFixture && matched.message.contains("differs in body"))
    }
}

import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Testing

private let serviceID: ServiceID = "secure"

/// A server speaking the same wire format: opens the request and answers with a sealed echo of it.
private func sealedEchoServer(
    scheme: EncryptionScheme,
    ring: KeyRing,
    answerKeyID: String? = nil,
    tamper: Bool = false,
    recorder: EventRecorder? = nil
) -> MockTransport {
    MockTransport { request, _ in
        let target = request.head.path ?? "/"
        let nonce = request.headerFields[EncryptionWireFormat.requestNonceHeader]
        var plaintext = Data("null".utf8)
        if let body = request.body?.bytes, !body.isEmpty {
            recorder?.record(String(decoding: body, as: UTF8.self))
            let header = try EncryptionWireFormat.parseHeader(request.headerFields[EncryptionWireFormat.encryptionHeader] ?? "")
            let aad = EncryptionWireFormat.associatedData(
                direction: .request,
                scheme: scheme,
                keyID: header.keyID,
                method: request.method.rawValue,
                target: target,
                requestNonce: nonce
            )
            plaintext = try scheme.open(body, key: ring.key(for: header.keyID) ?? ring.currentKey, aad: aad)
        }
        let keyID = answerKeyID ?? ring.currentKeyID
        let aad = EncryptionWireFormat.associatedData(
            direction: .response,
            scheme: scheme,
            keyID: keyID,
            method: request.method.rawValue,
            target: target,
            requestNonce: nonce
        )
        var sealed = try scheme.seal(
            Data(#"{"echo":"#.utf8) + plaintext + Data("}".utf8),
            key: ring.key(for: keyID) ?? ring.currentKey,
            aad: aad
        )
        if tamper { sealed[sealed.count / 2] ^= 0x01 }
        return Response(
            status: .ok,
            headerFields: [
                EncryptionWireFormat.encryptionHeader: EncryptionWireFormat.headerValue(scheme: scheme, keyID: keyID),
                EncryptionWireFormat.contentTypeHeader: "application/json",
                .contentType: scheme.isBinary ? "application/octet-stream" : "text/plain; charset=us-ascii",
            ],
            body: sealed
        )
    }
}

private struct Echo: Decodable, Sendable, Equatable {
    struct Payload: Decodable, Sendable, Equatable { let secret: String }
    let echo: Payload?
}

private func client(stage: EncryptionStage, transport: MockTransport) throws -> APIClient {
    let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
    try registry.register(Service(serviceID, baseURL: "https://secure.example/api", stages: [stage], transport: transport))
    return APIClient(registry: registry)
}

@Suite("Encryption stage")
struct EncryptionStageTests {
    static let schemes: [EncryptionScheme] = [
        .aes256GCM, .aes256CBCHMACSHA256, .legacyAESECBBase64, .legacyAESCBCBase64(fixedIV: Data(repeating: 7, count: 16)),
        .legacyAESCBCKeyIVBase64,
    ]

    @Test("every scheme round-trips a JSON body and a sealed response; the wire never shows the plaintext", arguments: schemes)
    func roundTrip(scheme: EncryptionScheme) async throws {
        let ring = try KeyRing(keyID: "k1", key: SymmetricKey.random(byteCount: 32))
        let wire = EventRecorder()
        let transport = sealedEchoServer(scheme: scheme, ring: ring, recorder: wire)
        let client = try client(stage: EncryptionStage(scheme: scheme, keyRing: ring), transport: transport)
        let result = try await client.send(serviceID, .post, "/vault", parameters: ["secret": "open sesame"], as: Echo.self)
        #expect(result.value == Echo(echo: .init(secret: "open sesame")))
        #expect(result.headerFields[.contentType] == "application/json")
        let sent = try #require(transport.requests.first)
        #expect(sent.headerFields[EncryptionWireFormat.encryptionHeader] == "\(scheme.name); kid=k1")
        #expect(sent.headerFields[EncryptionWireFormat.contentTypeHeader] == "application/json")
        #expect(wire.events.count == 1)
        #expect(!wire.events[0].contains("open sesame"))
    }

    @Test("a retry is sealed again with a fresh nonce")
    func freshNoncePerAttempt() async throws {
        let ring = try KeyRing(keyID: "k1", key: SymmetricKey.random(byteCount: 32))
        let transport = sealedEchoServer(scheme: .aes256GCM, ring: ring)
        let retry = ClosureStage(id: "retry") { request, context, next in
            _ = try await next(request, context)
            return try await next(request, context.nextAttempt())
        }
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(
            Service(serviceID, baseURL: "https://secure.example", stages: [retry, EncryptionStage(keyRing: ring)], transport: transport)
        )
        _ = try await APIClient(registry: registry).send(serviceID, .post, "/vault", parameters: ["secret": "x"], as: Echo.self)
        let bodies = transport.requests.compactMap(\.body?.bytes)
        #expect(bodies.count == 2)
        #expect(bodies[0].prefix(12) != bodies[1].prefix(12))
    }

    @Test(
        "a tampered response fails authentication with a crypto error naming the stage",
        arguments: [EncryptionScheme.aes256GCM, .aes256CBCHMACSHA256]
    )
    func tamperedResponse(scheme: EncryptionScheme) async throws {
        let ring = try KeyRing(keyID: "k1", key: SymmetricKey.random(byteCount: 32))
        let client = try client(
            stage: EncryptionStage(scheme: scheme, keyRing: ring),
            transport: sealedEchoServer(scheme: scheme, ring: ring, tamper: true)
        )
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(serviceID, .get, "/vault", as: Echo.self) }
        #expect(error?.code == .crypto)
        #expect(error?.stage == StageID("Encryption"))
        #expect((error?.underlyingError as? CryptoError)?.code == .authenticationFailed)
    }

    @Test("a response sealed for another path or direction fails authentication")
    func boundToPath() async throws {
        let ring = try KeyRing(keyID: "k1", key: SymmetricKey.random(byteCount: 32))
        let scheme = EncryptionScheme.aes256GCM
        let transport = MockTransport { _, _ in
            let aad = EncryptionWireFormat.associatedData(direction: .response, scheme: scheme, keyID: "k1", method: "GET", path: "/other")
            return Response(
                status: .ok,
                headerFields: [EncryptionWireFormat.encryptionHeader: "aes-256-gcm; kid=k1"],
                body: try scheme.seal(Data("{}".utf8), key: ring.currentKey, aad: aad)
            )
        }
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client(stage: EncryptionStage(keyRing: ring), transport: transport).send(serviceID, .get, "/vault")
        }
        #expect(error?.code == .crypto)
    }

    @Test("plaintext responses are refused when encryption is required, and passed on when accepted")
    func plaintextPolicy() async throws {
        let ring = try KeyRing(keyID: "k1", key: SymmetricKey.random(byteCount: 32))
        let plain = MockTransport(.json(#"{"echo":null}"#))
        let strict = try client(stage: EncryptionStage(keyRing: ring), transport: plain)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await strict.send(serviceID, .get, "/vault") }
        #expect(error?.code == .crypto)
        #expect(error?.message.contains("plaintext") == true)
        let lenient = try client(stage: EncryptionStage(keyRing: ring, responsePolicy: .acceptPlaintext), transport: plain)
        #expect(try await lenient.send(serviceID, .get, "/vault", as: Echo.self).value == Echo(echo: nil))
        let empty = try client(stage: EncryptionStage(keyRing: ring), transport: MockTransport(.status(.noContent)))
        #expect(try await empty.send(serviceID, .delete, "/vault").status == .noContent)
    }

    @Test("an unknown key id, a foreign scheme or a malformed header are crypto errors")
    func badHeaders() async throws {
        let ring = try KeyRing(keyID: "k1", key: SymmetricKey.random(byteCount: 32))
        for header in ["aes-256-gcm; kid=k9", "legacy-aes-ecb-base64; kid=k1", "aes-256-gcm", "aes-256-gcm; kid=bad id"] {
            let transport = MockTransport(.status(.ok, body: "AAAA", headerFields: [EncryptionWireFormat.encryptionHeader: header]))
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await client(stage: EncryptionStage(keyRing: ring), transport: transport).send(serviceID, .get, "/vault")
            }
            #expect(error?.code == .crypto, "\(header)")
        }
    }

    @Test("placement: the envelope check sees plaintext, the signature covers the ciphertext as sent")
    func placementWithSigning() async throws {
        let ring = try KeyRing(keyID: "k1", key: SymmetricKey.random(byteCount: 32))
        let seen = EventRecorder()
        let envelopeCheck = ClosureStage.response(id: "Envelope") { response, _, _ in
            seen.record("envelope saw " + response.bodyText)
        }
        let inner = sealedEchoServer(scheme: .aes256GCM, ring: ring)
        let transport = MockTransport { request, context in
            let nonce = request.headerFields[SigningWireFormat.nonceHeader] ?? ""
            let timestamp = Int64(request.headerFields[SigningWireFormat.timestampHeader] ?? "") ?? 0
            let canonical = SigningWireFormat.canonicalRequest(
                method: request.method.rawValue,
                target: request.path,
                timestamp: timestamp,
                nonce: nonce,
                keyID: "k1",
                body: request.body?.bytes ?? Data()
            )
            seen.record(
                request.headerFields[SigningWireFormat.signatureHeader]
                    == (try SigningWireFormat.signature(of: canonical, using: ring.currentKey)) ? "signature ok" : "signature bad"
            )
            return try await inner.send(request, context: context)
        }
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(
            Service(
                serviceID,
                baseURL: "https://secure.example",
                stages: [envelopeCheck, EncryptionStage(keyRing: ring), SigningStage(keyRing: ring)],
                transport: transport
            )
        )
        _ = try await APIClient(registry: registry).send(serviceID, .post, "/vault", parameters: ["secret": "s"])
        #expect(seen.events == ["signature ok", #"envelope saw {"echo":{"secret":"s"}}"#])
    }

    @Test("keys rotate: responses sealed with an older key of the ring still open")
    func rotation() async throws {
        let old = try SymmetricKey.random(byteCount: 32)
        let new = try SymmetricKey.random(byteCount: 32)
        let ring = try KeyRing(currentKeyID: "2026-11", keys: ["2026-11": new, "2026-05": old])
        let transport = sealedEchoServer(scheme: .aes256GCM, ring: ring, answerKeyID: "2026-05")
        let result = try await client(stage: EncryptionStage(keyRing: ring), transport: transport)
            .send(serviceID, .post, "/vault", parameters: ["secret": "s"], as: Echo.self)
        #expect(result.value.echo?.secret == "s")
        #expect(transport.requests.first?.headerFields[EncryptionWireFormat.encryptionHeader] == "aes-256-gcm; kid=2026-11")
    }

    @Test("key rings validate ids and never print keys")
    func keyRingValidation() throws {
        let key = try SymmetricKey.random(byteCount: 32)
        #expect(throws: CryptoError.self) { try KeyRing(currentKeyID: "k2", keys: ["k1": key]) }
        #expect(throws: CryptoError.self) { try KeyRing(keyID: "bad id", key: key) }
        let ring = try KeyRing(keyID: "k1", key: key)
        #expect(ring.description == "KeyRing(current: k1, ids: k1)")
    }

    @Test("100,000 random bodies fed to every scheme's open end in errors or plaintext, never a crash")
    func randomBodies() async throws {
        // Seconds of work: it yields now and then, so the tests sharing its thread pool (timers
        // among them) are not held up by it.
        var generator = SplitMix64(seed: 0x5357_4954_4348)
        let key = try SymmetricKey.random(byteCount: 32)
        let aad = Data("aad".utf8)
        var failures = 0
        for round in 0..<100_000 {
            if round % 1_000 == 0 { await Task.yield() }
            let count = Int(generator.next() % 96)
            let body = Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            let scheme = Self.schemes[round % Self.schemes.count]
            do { _ = try scheme.open(body, key: key, aad: aad) } catch { failures += 1 }
        }
        #expect(failures > 90_000)
    }

    @Test("a streamed upload and an encrypted download to a file are refused, never sent or accepted in plaintext")
    func refusesWhatItCannotSee() async throws {
        let ring = try KeyRing(keyID: "k1", key: SymmetricKey.random(byteCount: 32))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-enc-\(UUID().uuidString)")
        try Data("secret file".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = sealedEchoServer(scheme: .aes256GCM, ring: ring)
        let upload = await #expect(throws: SwitchyardError.self) {
            _ = try await client(stage: EncryptionStage(keyRing: ring), transport: transport).send(
                serviceID,
                .post,
                "/vault",
                body: try .file(file)
            )
        }
        #expect(upload?.code == .unsupportedBody && upload?.stage == StageID("Encryption"))
        #expect(transport.requestCount == 0)

        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-enc-\(UUID().uuidString)")
        let encryptedFile = MockTransport { _, context in
            let sink = try DownloadSink(
                target: try #require(context.downloadTarget),
                head: HTTPResponse(
                    status: .ok,
                    headerFields: [EncryptionWireFormat.encryptionHeader: "aes-256-gcm; kid=k1", .contentLength: "4"]
                ),
                progress: nil
            )
            try sink.write(Data("abcd".utf8))
            var response = Response(status: .ok, headerFields: [EncryptionWireFormat.encryptionHeader: "aes-256-gcm; kid=k1"])
            response.body = .file(try sink.finish())
            return response
        }
        let download = await #expect(throws: SwitchyardError.self) {
            _ = try await client(stage: EncryptionStage(keyRing: ring), transport: encryptedFile).send(
                DynamicEndpoint<Response>(service: serviceID, method: .get, path: "/vault/file").downloading(to: destination)
            )
        }
        #expect(download?.code == .unsupportedBody)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        try? FileManager.default.removeItem(atPath: destination.path + ".partial")
    }
}

/// Where an opened response's `Content-Type` goes, and which fields stay.
@Suite("Encryption stage: an opened response's fields")
struct EncryptionOpenedFieldsTests {
    /// Runs the stage over a GET whose answer, sealed for it, carries `fields` besides the encryption header.
    private func opened(_ fields: [HTTPField]) async throws -> [HTTPField] {
        let ring = try KeyRing(keyID: "k1", key: SymmetricKey.random(byteCount: 32))
        let stage = EncryptionStage(scheme: .aes256GCM, keyRing: ring)
        let request = try Request.fixture(.get, "https://secure.example/api/items")
        let run = await StageHarness(stage).run(
            request,
            respond: MockResponse { request, _ in
                let aad = EncryptionWireFormat.associatedData(
                    direction: .response,
                    scheme: .aes256GCM,
                    keyID: "k1",
                    method: request.method.rawValue,
                    target: request.head.path ?? "/",
                    requestNonce: request.headerFields[EncryptionWireFormat.requestNonceHeader]
                )
                var headerFields = HTTPFields(fields)
                let header = EncryptionWireFormat.headerValue(scheme: .aes256GCM, keyID: "k1")
                headerFields.append(HTTPField(name: EncryptionWireFormat.encryptionHeader, value: header))
                let sealed = try EncryptionScheme.aes256GCM.seal(Data("{}".utf8), key: ring.currentKey, aad: aad)
                return Response(status: .ok, headerFields: headerFields, body: sealed)
            }
        )
        #expect(run.error == nil)
        return run.response.map { Array($0.headerFields) } ?? []
    }

    @Test("the original type takes the first Content-Type's place; later ones and both encryption headers go")
    func originalTypeInPlace() async throws {
        let fields = try await opened([
            HTTPField(name: HTTPField.Name("X-Before")!, value: "1"),
            HTTPField(name: .contentType, value: "application/octet-stream"),
            HTTPField(name: HTTPField.Name("X-Middle")!, value: "2"),
            HTTPField(name: .contentType, value: "text/plain"),
            HTTPField(name: EncryptionWireFormat.contentTypeHeader, value: "application/json"),
            HTTPField(name: HTTPField.Name("X-After")!, value: "3"),
        ])
        #expect(
            fields == [
                HTTPField(name: HTTPField.Name("X-Before")!, value: "1"),
                HTTPField(name: .contentType, value: "application/json"),
                HTTPField(name: HTTPField.Name("X-Middle")!, value: "2"),
                HTTPField(name: HTTPField.Name("X-After")!, value: "3"),
            ]
        )
    }

    @Test("without an original type the opened response has no Content-Type")
    func noOriginalType() async throws {
        let fields = try await opened([
            HTTPField(name: .contentType, value: "application/octet-stream"),
            HTTPField(name: HTTPField.Name("X-Kept")!, value: "1"),
        ])
        #expect(fields == [HTTPField(name: HTTPField.Name("X-Kept")!, value: "1")])
    }

    @Test("an original type without a Content-Type is added last")
    func originalTypeAddedLast() async throws {
        let fields = try await opened([
            HTTPField(name: EncryptionWireFormat.contentTypeHeader, value: "application/json"),
            HTTPField(name: HTTPField.Name("X-Kept")!, value: "1"),
        ])
        #expect(
            fields == [HTTPField(name: HTTPField.Name("X-Kept")!, value: "1"), HTTPField(name: .contentType, value: "application/json")]
        )
    }
}

import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Testing

extension StageID {
    fileprivate static let orders: StageID = "OrdersCrypto"
    fileprivate static let users: StageID = "UsersCrypto"
    fileprivate static let stock: StageID = "StockCrypto"
}

/// One legacy backend whose three endpoints each speak their own scheme with their own key:
/// `data=<sealed>` in, `{"code":0,"msg":"ok","data":"<sealed>"}` out.
private enum ThreeKeyBackend {
    static let endpoints: [(path: String, id: StageID, scheme: EncryptionScheme, ring: KeyRing)] = [
        ("/orders", .orders, .legacyAESECBBase64, try! KeyRing(keyID: "o", key: SymmetricKey(Data(repeating: 1, count: 16)))),
        (
            "/users", .users, .legacyAESCBCBase64(fixedIV: Data(repeating: 9, count: 16)),
            try! KeyRing(keyID: "u", key: SymmetricKey(Data(repeating: 2, count: 32)))
        ),
        ("/stock", .stock, .legacyAESCBCKeyIVBase64, try! KeyRing(keyID: "s", key: SymmetricKey(Data(repeating: 3, count: 24)))),
    ]

    static let framing = EncryptionFraming(request: .formField("data"), response: .envelopeMember("data"))

    /// Opens `data=` with the endpoint's own scheme and key and answers with a sealed echo.
    static let transport = MockTransport { request, _ in
        guard let endpoint = endpoints.first(where: { $0.path == request.head.path }) else { return Response(status: .notFound) }
        let form = String(decoding: request.body?.bytes ?? Data(), as: UTF8.self)
        guard form.hasPrefix("data="), let text = String(form.dropFirst(5)).removingPercentEncoding,
            let plaintext = try? endpoint.scheme.open(Data(text.utf8), key: endpoint.ring.currentKey, aad: Data()),
            (try? JSONSerialization.jsonObject(with: plaintext)) != nil
        else { return Response(status: .badRequest, body: Data(#"{"code":400,"msg":"cannot open","data":null}"#.utf8)) }
        let sealed = try endpoint.scheme.seal(
            Data(#"{"echo":"#.utf8) + plaintext + Data("}".utf8),
            key: endpoint.ring.currentKey,
            aad: Data()
        )
        return Response(status: .ok, body: LegacyAnswers.envelope(String(decoding: sealed, as: UTF8.self)))
    }

    static func client() throws -> APIClient {
        let stages = endpoints.map { EncryptionStage(scheme: $0.scheme, keyRing: $0.ring, framing: framing, id: $0.id).optIn() }
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(Service(ServiceID("legacy"), baseURL: "https://legacy.test", stages: stages, transport: transport))
        return APIClient(registry: registry)
    }
}

private struct Echoed: Decodable, Equatable {
    struct Data: Decodable, Equatable {
        struct Body: Decodable, Equatable { let n: Int }
        let echo: Body
    }
    let code: Int
    let data: Data
}

@Suite("One service, several encryption stages under their own ids")
struct EncryptionStageIDTests {
    @Test("three legacy endpoints with their own keys and schemes are one service: each call enables its own stage")
    func threeKeysOneService() async throws {
        let client = try ThreeKeyBackend.client()
        for (index, endpoint) in ThreeKeyBackend.endpoints.enumerated() {
            let result = try await client.send(
                ServiceID("legacy"),
                .post,
                endpoint.path,
                parameters: ["n": .int(index)],
                options: CallOptions(enabledStages: [endpoint.id]),
                as: Echoed.self
            )
            #expect(result.value == Echoed(code: 0, data: .init(echo: .init(n: index))), "\(endpoint.path)")
        }
        let sent = ThreeKeyBackend.transport.requests.compactMap { $0.body?.bytes.map { String(decoding: $0, as: UTF8.self) } }
        #expect(sent.count == 3 && sent.allSatisfy { $0.hasPrefix("data=") && !$0.contains("\"n\"") })
    }

    @Test("a stage's errors name its own id, and the default id stays Encryption")
    func errorsNameTheStage() async throws {
        #expect(EncryptionStage(keyRing: LegacyAnswers.ring).id == .encryption)
        let stage = EncryptionStage(
            scheme: .legacyAESECBBase64,
            keyRing: LegacyAnswers.ring,
            framing: ThreeKeyBackend.framing,
            id: .stock
        )
        let run = await StageHarness(stage).run(
            try LegacyAnswers.payRequest(),
            respond: LegacyAnswers.answer(Data(#"{"code":0,"data":null}"#.utf8))
        )
        #expect(run.error?.code == .crypto)
        #expect(run.error?.stage == .stock)
    }
}

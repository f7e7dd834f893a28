import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Testing

extension ServiceID {
    fileprivate static let wallet: ServiceID = "wallet"
}

@Suite("An envelope stage over signing and encryption reads only what the service vouched for")
struct SignedEnvelopeTests {
    private static let key = SymmetricKey(Data(repeating: 0x37, count: 32))
    private static let ring = try! KeyRing(keyID: "k1", key: key)

    private func client(_ stages: [any Stage], transport: MockTransport) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try registry.register(Service(.wallet, baseURL: "https://wallet.test", stages: stages, transport: transport))
        return APIClient(registry: registry)
    }

    private static func stages(_ name: String) -> [any Stage] {
        let envelope = EnvelopeStage(successCodes: [0])
        let signing = SigningStage(keyRing: ring, responseVerification: .required)
        return switch name {
        case "signing": [envelope, signing]
        case "encryption": [envelope, EncryptionStage(keyRing: ring)]
        default: [envelope, EncryptionStage(keyRing: ring), signing]
        }
    }

    @Test(
        "an auth proxy's unsigned, unsealed 401 envelope is not caught as a business error; it is an httpStatus with its body",
        arguments: ["signing", "encryption", "signing and encryption"]
    )
    func proxyEnvelopeIsNotBusiness(stages: String) async throws {
        let body = #"{"code":401001,"msg":"session expired, call +1 555 0100","data":null}"#
        let transport = MockTransport(.json(body, status: .unauthorized))
        let client = try client(Self.stages(stages), transport: transport)
        do {
            _ = try await client.send(.wallet, .get, "/balance")
            Issue.record("the call succeeded")
        } catch  where error.code == .business {
            Issue.record("the README's business catch fired for an unverified envelope: \(error.message)")
        } catch {
            #expect(error.code == .httpStatus)
            #expect(error.status == .unauthorized)
            #expect(error.response?.bodyText == body)
            #expect(error.response?.isUnverified == true)
        }
    }

    @Test("a sealed but unsigned error envelope is opened, yet stays unverified: an httpStatus with the plaintext, never business")
    func sealedUnsignedErrorIsNotBusiness() async throws {
        let plaintext = #"{"code":40001,"msg":"limit reached","data":null}"#
        let transport = MockTransport { request, _ in
            let aad = EncryptionWireFormat.associatedData(
                direction: .response,
                scheme: .aes256GCM,
                keyID: "k1",
                method: request.method.rawValue,
                target: request.head.path ?? "/",
                requestNonce: request.headerFields[EncryptionWireFormat.requestNonceHeader]
            )
            return Response(
                status: .badRequest,
                headerFields: [
                    EncryptionWireFormat.encryptionHeader: "aes-256-gcm; kid=k1",
                    EncryptionWireFormat.contentTypeHeader: "application/json",
                    .contentType: "application/octet-stream",
                ],
                body: try EncryptionScheme.aes256GCM.seal(Data(plaintext.utf8), key: Self.key, aad: aad)
            )
        }
        let client = try client(Self.stages("signing and encryption"), transport: transport)
        do {
            _ = try await client.send(.wallet, .post, "/transfers", body: .text("amount=10"))
            Issue.record("the call succeeded")
        } catch  where error.code == .business {
            Issue.record("an unsigned error was read as the service's business error: \(error.message)")
        } catch {
            #expect(error.code == .httpStatus)
            #expect(error.status == .badRequest)
            #expect(error.response?.bodyText == plaintext)
            #expect(error.response?.isUnverified == true)
        }
    }

    @Test(
        "an unsigned 204 No Content fails the call with a crypto error where signed responses are required",
        arguments: ["signing", "signing and encryption"]
    )
    func unsignedNoContentRefused(stages: String) async throws {
        let client = try client(Self.stages(stages), transport: MockTransport(.status(.noContent)))
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(.wallet, .delete, "/cards/1", as: NoContent.self)
        }
        #expect(error?.code == .crypto)
        #expect(error?.stage == .signing)
    }

    @Test("a signed 204 No Content succeeds on a service with an envelope stage", arguments: ["signing", "signing and encryption"])
    func signedNoContent(stages: String) async throws {
        let transport = MockTransport { request, _ in
            let nonce = request.headerFields[SigningWireFormat.nonceHeader] ?? ""
            let timestamp = Int64(Date().timeIntervalSince1970)
            let canonical = SigningWireFormat.canonicalResponse(
                status: 204,
                timestamp: timestamp,
                requestNonce: nonce,
                keyID: "k1",
                body: Data()
            )
            let fields: HTTPFields = [
                SigningWireFormat.keyIDHeader: "k1", SigningWireFormat.timestampHeader: String(timestamp),
                SigningWireFormat.signatureHeader: try SigningWireFormat.signature(of: canonical, using: Self.key),
            ]
            return Response(status: .noContent, headerFields: fields)
        }
        let result = try await client(Self.stages(stages), transport: transport).send(.wallet, .delete, "/cards/1", as: NoContent.self)
        #expect(result.value == NoContent())
        #expect(result.status == .noContent)
    }
}

import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting

/// What a legacy backend answers in the framings of ``EncryptionFraming``: sealed with empty
/// associated data, as `Docs/WireFormat.md` says, so the tests build answers the way a server does.
enum LegacyAnswers {
    /// A 32-byte key of `0x5a` bytes, the worked example's.
    static let ring = try! KeyRing(keyID: "k1", key: SymmetricKey(Data(repeating: 0x5a, count: 32)))

    /// The app's payload inside every answer.
    static let payload = Data(#"{"paid":true,"id":"p-1"}"#.utf8)

    /// The sealed text of `plaintext`: Base64 of binary output, a legacy scheme's own Base64 text.
    static func sealedText(_ plaintext: Data = payload, scheme: EncryptionScheme, ring: KeyRing = ring) throws -> String {
        let sealed = try scheme.seal(plaintext, key: ring.currentKey, aad: Data())
        return scheme.isBinary ? sealed.base64EncodedString() : String(decoding: sealed, as: UTF8.self)
    }

    /// `{"code":0,"msg":"ok","data":"<sealed text>"}`.
    static func envelope(_ sealedText: String) -> Data {
        Data(#"{"code":0,"msg":"ok","data":"\#(sealedText)"}"#.utf8)
    }

    /// A canned answer with these exact bytes.
    static func answer(_ body: Data, status: HTTPResponse.Status = .ok) -> MockResponse {
        let response = Response(status: status, headerFields: [.contentType: "application/json"], body: body)
        return MockResponse { _, _ in response }
    }

    /// A stage speaking `response` framing back, JSON member `payload` out.
    static func stage(
        scheme: EncryptionScheme = .aes256GCM,
        response: EncryptionFraming.ResponseFraming,
        policy: EncryptionStage.ResponsePolicy = .requireEncrypted
    ) -> EncryptionStage {
        EncryptionStage(
            scheme: scheme,
            keyRing: ring,
            responsePolicy: policy,
            framing: EncryptionFraming(request: .jsonMember("payload"), response: response)
        )
    }

    /// `POST https://pay.test/pay` with a small JSON body, or a bodiless request with another method.
    static func payRequest(_ method: HTTPRequest.Method = .post) throws -> Request {
        try .fixture(
            method,
            "https://pay.test/pay",
            headerFields: [.contentType: "application/json"],
            body: method == .post ? #"{"amount":1}"# : nil
        )
    }
}

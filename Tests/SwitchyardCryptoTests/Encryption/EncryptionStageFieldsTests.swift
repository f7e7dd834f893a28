import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Testing

/// The stage sets its header fields in one pass; these pin that the request leaves with exactly the
/// fields, in exactly the order, that setting them one by one with the subscript gives — app-set
/// fields of the same names included.
@Suite("Encryption stage header fields")
struct EncryptionStageFieldsTests {
    static let ring = try! KeyRing(keyID: "k1", key: SymmetricKey(Data(repeating: 0x24, count: 32)))

    /// A request's fields in order, each with its name as written.
    static func listed(_ fields: HTTPFields) -> [String] {
        fields.map { "\($0.name.rawName): \($0.value)" }
    }

    /// The fields the stage's subscript sets, one by one, leave on `start` (what it did before).
    static func oneByOne(_ start: Request, nonce: String?, scheme: EncryptionScheme, wireFormat: EncryptionWireFormat.Version) -> HTTPFields
    {
        var fields = start.headerFields
        let header = EncryptionWireFormat.headerValue(scheme: scheme, keyID: "k1")
        if wireFormat == .v2 {
            fields[EncryptionWireFormat.requestNonceHeader] = nonce
            fields[EncryptionWireFormat.encryptionHeader] = header
        }
        if let body = start.body?.bytes, !body.isEmpty {
            let originalType = start.headerFields[.contentType]
            fields[EncryptionWireFormat.encryptionHeader] = header
            fields[EncryptionWireFormat.contentTypeHeader] = originalType
            fields[.contentType] = scheme.isBinary ? "application/octet-stream" : "text/plain; charset=us-ascii"
        }
        return fields
    }

    static func request(_ fields: [(String, String)], body: String?) throws -> Request {
        var headerFields = HTTPFields()
        for (name, value) in fields { headerFields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return try .fixture(body == nil ? .get : .post, "https://api.test/vault?x=1", headerFields: headerFields, body: body)
    }

    static let cases: [(fields: [(String, String)], body: String?)] = [
        // The common request: a JSON body, none of the stage's names.
        ([("Accept", "*/*"), ("Content-Type", "application/json"), ("X-App", "1")], #"{"a":1}"#),
        // The app set the stage's names (in another case): replaced where they stand.
        (
            [
                ("x-switchyard-encryption", "forged"), ("Content-Type", "application/json"), ("X-Switchyard-Request-Nonce", "0"),
                ("x-switchyard-content-type", "text/evil"),
            ],
            #"{"a":1}"#
        ),
        // No type to keep: the app's X-Switchyard-Content-Type is removed.
        ([("X-Switchyard-Content-Type", "text/evil"), ("Accept", "*/*")], "plain"),
        // A name twice: the second is removed, as the subscript removes it.
        (
            [("X-Switchyard-Encryption", "a"), ("Content-Type", "application/json"), ("X-Switchyard-Encryption", "b")],
            #"{"a":1}"#
        ),
        ([("Content-Type", "application/json"), ("Content-Type", "text/plain")], #"{"a":1}"#),
        // No body: only the nonce and the scheme (version 2).
        ([("X-Switchyard-Encryption", "forged"), ("Accept", "*/*")], nil),
    ]

    @Test(
        "the request leaves with the fields the subscript sets give, in order",
        arguments: [EncryptionWireFormat.Version.v2, .v1],
        [EncryptionScheme.aes256GCM, .legacyAESECBBase64]
    )
    func fieldsAsSetOneByOne(wireFormat: EncryptionWireFormat.Version, scheme: EncryptionScheme) async throws {
        let stage = EncryptionStage(scheme: scheme, keyRing: Self.ring, responsePolicy: .acceptPlaintext, wireFormat: wireFormat)
        for (fields, body) in Self.cases {
            let start = try Self.request(fields, body: body)
            let run = await StageHarness(stage).run(start)
            let sent = try #require(run.forwardedRequest)
            let nonce = sent.headerFields[EncryptionWireFormat.requestNonceHeader]
            if wireFormat == .v2 { #expect(nonce?.count == 32) }
            let expected = Self.oneByOne(start, nonce: nonce, scheme: scheme, wireFormat: wireFormat)
            #expect(Self.listed(sent.headerFields) == Self.listed(expected), "fields \(fields), body \(body ?? "none")")
        }
    }
}

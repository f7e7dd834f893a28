import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Testing

/// ``CanonicalRequestSigning`` sets its four fields in one pass; these pin that the request leaves
/// with exactly the fields, in exactly the order, that four subscript sets give — app-set fields of
/// the same names included.
@Suite("Signing stage header fields")
struct SigningStageFieldsTests {
    static let key = SymmetricKey(Data(repeating: 0x42, count: 32))
    static let ring = try! KeyRing(keyID: "k1", key: key)

    static func listed(_ fields: HTTPFields) -> [String] {
        fields.map { "\($0.name.rawName): \($0.value)" }
    }

    static let cases: [[(String, String)]] = [
        [("Accept", "*/*"), ("Content-Type", "application/json")],
        [("x-switchyard-nonce", "forged"), ("Accept", "*/*"), ("X-Switchyard-Signature", "forged"), ("X-Switchyard-Key-Id", "k0")],
        [("X-Switchyard-Timestamp", "1"), ("Accept", "*/*"), ("x-switchyard-timestamp", "2")],
    ]

    @Test("the request leaves with the fields four subscript sets give, in order, and a valid signature")
    func fieldsAsSetOneByOne() async throws {
        let stage = SigningStage(keyRing: Self.ring, now: { Date(timeIntervalSince1970: 1_700_000_000) })
        for fields in Self.cases {
            var headerFields = HTTPFields()
            for (name, value) in fields { headerFields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
            let start = try Request.fixture(.post, "https://api.test/v1/items", headerFields: headerFields, body: #"{"x":1}"#)
            let run = await StageHarness(stage).run(start)
            let sent = try #require(run.forwardedRequest)
            let nonce = try #require(sent.headerFields[SigningWireFormat.nonceHeader])
            #expect(nonce.count == 32 && nonce != "forged")
            let canonical = SigningWireFormat.canonicalRequest(
                method: "POST",
                target: "/v1/items",
                timestamp: 1_700_000_000,
                nonce: nonce,
                keyID: "k1",
                body: Data(#"{"x":1}"#.utf8)
            )
            var expected = start.headerFields
            expected[SigningWireFormat.keyIDHeader] = "k1"
            expected[SigningWireFormat.timestampHeader] = "1700000000"
            expected[SigningWireFormat.nonceHeader] = nonce
            expected[SigningWireFormat.signatureHeader] = try SigningWireFormat.signature(of: canonical, using: Self.key)
            #expect(Self.listed(sent.headerFields) == Self.listed(expected), "fields \(fields)")
        }
    }
}

import Foundation
import SwitchyardCrypto
import Testing

@Suite("The X-Switchyard-Encryption header: written and read back, malformed values refused")
struct EncryptionHeaderTests {
    @Test("a header value written for a scheme and key id reads back as both")
    func roundTrip() throws {
        let value = EncryptionWireFormat.headerValue(scheme: .aes256GCM, keyID: "shop-2024")
        #expect(value == "\(EncryptionScheme.aes256GCM.name); kid=shop-2024")
        let parsed = try EncryptionWireFormat.parseHeader(value)
        #expect(parsed.scheme == EncryptionScheme.aes256GCM.name && parsed.keyID == "shop-2024")
    }

    @Test("spaces and tabs around either part are allowed")
    func blanksAroundParts() throws {
        let parsed = try EncryptionWireFormat.parseHeader(" \tA256GCM \t;  kid=k1\t")
        #expect(parsed.scheme == "A256GCM" && parsed.keyID == "k1")
    }

    @Test(
        "a value without exactly one ';', without 'kid=', with an empty scheme or an invalid key id is refused",
        arguments: ["A256GCM kid=k1", "A256GCM; kid=k1; x", "A256GCM; key=k1", " ; kid=k1", "A256GCM; kid=", "A256GCM; kid=a b", ""]
    )
    func malformed(_ value: String) {
        #expect(throws: CryptoError.self) { try EncryptionWireFormat.parseHeader(value) }
    }
}

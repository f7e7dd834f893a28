import Foundation
import SwitchyardCrypto
import Testing

/// MD5 vectors are copied from PyPI `cryptography-vectors` 50.0.2
/// (`cryptography_vectors/hashes/MD5/rfc-1321.txt`, the RFC 1321 test suite); SHA vectors from
/// `hashes/SHA2/SHA256ShortMsg.rsp` and `hashes/SHA1/SHA1ShortMsg.rsp` (NIST CAVP), plus the "abc"
/// examples of FIPS 180 (not in those files; checked against Python's hashlib).
@Suite("Digests and hex")
struct DigestTests {
    @Test(
        "MD5: RFC 1321 test suite",
        arguments: [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
        ]
    )
    func md5(message: String, digest: String) {
        #expect(hexString(Digest.md5(Data(message.utf8))) == digest)
    }

    @Test("SHA-256: FIPS 180 \"abc\" and SHA256ShortMsg.rsp")
    func sha256() {
        #expect(
            hexString(Digest.sha256(Data("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        #expect(
            hexString(Digest.sha256(Data()))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        )
        #expect(
            hexString(Digest.sha256(hex("b4190e")))
                == "dff2e73091f6c05e528896c4c831b9448653dc2ff043528f6769437bc7b975c2"
        )
        #expect(hexString(Digest.sha256([UInt8]("abc".utf8))) == hexString(Digest.sha256(Data("abc".utf8))))
    }

    @Test("SHA-1: FIPS 180 \"abc\" and SHA1ShortMsg.rsp")
    func sha1() {
        #expect(hexString(Digest.sha1(Data("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hexString(Digest.sha1(Data())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hexString(Digest.sha1(hex("df4bd2"))) == "bf36ed5d74727dfd5d7854ec6b1d49468d8ee8aa")
    }

    /// The WeChat Pay v2 signature example: MD5 of stringSignTemp (which ends in `&key=…`), upper-case hex.
    @Test("WeChat Pay v2 MD5 signature example")
    func weChatPayMD5() {
        let stringSignTemp =
            "appid=wxd930ea5d5a258f4f&body=test&device_info=1000&mch_id=10000100"
            + "&nonce_str=ibuaiVcKdpRxkhJA&key=192006250b4c09247ec02edce69f6a2d"
        #expect(Digest.hex(Digest.md5(Data(stringSignTemp.utf8)), uppercase: true) == "9A0A8659F005D6984697E2CA0A9CF3B7")
    }

    @Test("hex formats every byte as two digits, lower or upper case")
    func hexFormatting() {
        #expect(Digest.hex(Data()) == "")
        #expect(Digest.hex(Data([0x00, 0x0F, 0xA0, 0xFF])) == "000fa0ff")
        #expect(Digest.hex(Data([0x00, 0x0F, 0xA0, 0xFF]), uppercase: true) == "000FA0FF")
        let slice = Data([1, 2, 3, 0xAB]).dropFirst(2)
        #expect(Digest.hex(slice) == "03ab")
    }
}

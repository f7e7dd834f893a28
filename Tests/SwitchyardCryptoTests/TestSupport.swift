import Foundation
import SwitchyardCrypto
import Testing

/// Decodes the hex text of a test vector (whitespace is ignored). Vectors are constants in this
/// target, so malformed text is a bug in the test and stops it.
func hex(_ text: String) -> Data {
    let digits = Array(text.utf8.filter { $0 != 0x20 && $0 != 0x0A })
    precondition(digits.count % 2 == 0, "odd-length hex vector")
    var bytes = Data(capacity: digits.count / 2)
    var index = 0
    while index < digits.count {
        bytes.append(nibble(digits[index]) << 4 | nibble(digits[index + 1]))
        index += 2
    }
    return bytes
}

private func nibble(_ digit: UInt8) -> UInt8 {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: preconditionFailure("not a hex digit: \(digit)")
    }
}

/// Lower-case hex of `data`, for readable `#expect` failures.
func hexString(_ data: Data) -> String { Digest.hex(data) }

/// Expects `body` to throw a ``CryptoError`` with `code`.
func expectCryptoError<T>(
    _ code: CryptoError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws(CryptoError) -> T
) {
    do {
        _ = try body()
        Issue.record("expected CryptoError \(code), but the call succeeded", sourceLocation: sourceLocation)
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    }
}

/// A small deterministic generator (SplitMix64) so that random-input tests replay identically.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` pseudo-random bytes.
    mutating func bytes(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &self) })
    }
}

/// The AES block function E_K(block), taken as the first block of AES-ECB (itself checked against
/// the NIST ECB vectors). Used to build reference PKCS#7 ciphertexts independently of the CBC code.
func aesBlock(_ block: Data, key: SymmetricKey) throws -> Data {
    precondition(block.count == 16)
    return Data(try AESECB.encrypt(block, using: key).prefix(16))
}

/// PKCS#7 padding to 16-byte blocks (RFC 5652 §6.3), written out for reference ciphertexts.
func pkcs7Padded(_ data: Data) -> Data {
    let padding = 16 - data.count % 16
    return data + Data(repeating: UInt8(padding), count: padding)
}

/// XOR of two equally long byte strings.
func xor(_ a: Data, _ b: Data) -> Data {
    Data(zip(a, b).map { $0 ^ $1 })
}

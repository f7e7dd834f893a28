import COpenSSL
public import Foundation

/// Hash functions through OpenSSL's `EVP_Digest`, and hex formatting for their output.
///
/// SHA-256 is the one to use; SHA-1 and MD5 exist only for legacy signature schemes (such as an MD5
/// over sorted request parameters) and must not be relied on for collision resistance.
///
/// ```swift
/// let sign = Digest.hex(Digest.md5(Data(stringSignTemp.utf8)), uppercase: true)   // legacy scheme
/// let bodyHash = Digest.hex(Digest.sha256(body))
/// ```
///
/// These functions do not throw: OpenSSL fails to hash only when it cannot allocate memory or when
/// its configuration disables the algorithm (MD5 under a FIPS-only provider), and both are treated
/// as a programming or deployment error that stops the process with a message.
public enum Digest {
    /// The SHA-256 digest (32 bytes) of `data`.
    public static func sha256(_ data: some ContiguousBytes) -> Data {
        hash(data, switchyard_digest(SWITCHYARD_SHA256), byteCount: 32, name: "SHA-256")
    }

    /// The SHA-1 digest (20 bytes) of `data`. Legacy: use only where an old scheme requires it.
    public static func sha1(_ data: some ContiguousBytes) -> Data {
        hash(data, switchyard_digest(SWITCHYARD_SHA1), byteCount: 20, name: "SHA-1")
    }

    /// The MD5 digest (16 bytes) of `data`. Legacy: use only where an old scheme requires it.
    public static func md5(_ data: some ContiguousBytes) -> Data {
        hash(data, switchyard_digest(SWITCHYARD_MD5), byteCount: 16, name: "MD5")
    }

    /// Lower-case (or upper-case) hexadecimal, two digits per byte, no separators.
    ///
    /// ```swift
    /// Digest.hex(Data([0x9a, 0x0a]), uppercase: true)   // "9A0A"
    /// ```
    public static func hex(_ data: Data, uppercase: Bool = false) -> String {
        data.withUnsafeBytes { bytes in hex(bytes: bytes, uppercase: uppercase) }
    }

    /// ``hex(_:uppercase:)`` of bytes in any storage (a buffer on the stack, a string's UTF-8).
    static func hex(bytes: UnsafeRawBufferPointer, uppercase: Bool = false) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { output in
            writeHex(bytes, into: UnsafeMutableBufferPointer(rebasing: output[...]), uppercase: uppercase)
        }
    }

    /// Writes `bytes` as hexadecimal, two digits per byte, at the start of `output` (which has room
    /// for them); returns the number of digits written.
    static func writeHex(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>, uppercase: Bool = false) -> Int {
        let digits: StaticString = uppercase ? "0123456789ABCDEF" : "0123456789abcdef"
        digits.withUTF8Buffer { digits in
            for (index, byte) in bytes.enumerated() {
                output[2 * index] = digits[Int(byte >> 4)]
                output[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
        }
        return bytes.count * 2
    }

    /// The SHA-256 digest of `data` into the first 32 bytes of `output`, with no `Data` of its own.
    static func sha256(_ data: some ContiguousBytes, into output: UnsafeMutableRawBufferPointer) {
        hash(data, switchyard_digest(SWITCHYARD_SHA256), byteCount: 32, name: "SHA-256", into: output)
    }

    /// One `EVP_Digest` call into a `byteCount`-byte result.
    private static func hash(_ data: some ContiguousBytes, _ type: OpaquePointer?, byteCount: Int, name: String) -> Data {
        var digest = Data(count: byteCount)
        digest.withUnsafeMutableBytes { output in hash(data, type, byteCount: byteCount, name: name, into: output) }
        return digest
    }

    /// One `EVP_Digest` call into the first `byteCount` bytes of `output`.
    private static func hash(
        _ data: some ContiguousBytes,
        _ type: OpaquePointer?,
        byteCount: Int,
        name: String,
        into output: UnsafeMutableRawBufferPointer
    ) {
        precondition(output.count >= byteCount, "a \(name) digest needs \(byteCount) bytes")
        let succeeded = data.withUnsafeBytes { input in
            var written: UInt32 = 0
            let status = EVP_Digest(input.baseAddress, input.count, output.bytePointer, &written, type, nil)
            return status == 1 && Int(written) == byteCount
        }
        guard succeeded else {
            preconditionFailure("\(CryptoError.openSSL("EVP_Digest \(name)"))")
        }
    }
}

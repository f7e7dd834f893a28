import COpenSSL
public import Foundation
public import Switchyard

/// SHA-256 over bytes fed in pieces, through OpenSSL's `EVP_DigestUpdate`: for checking large files
/// (downloads) without loading them.
///
/// ```swift
/// let hasher = SHA256Hasher()
/// chunk.withUnsafeBytes { hasher.update($0) }
/// let digest = hasher.finalize()   // 32 bytes
/// ```
///
/// Not thread-safe: use one hasher from one task at a time.
public final class SHA256Hasher: IncrementalHasher {
    private let context: OpaquePointer

    /// Starts a digest.
    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, switchyard_digest(SWITCHYARD_SHA256), nil) == 1 else {
            preconditionFailure("\(CryptoError.openSSL("EVP_DigestInit_ex SHA-256"))")
        }
        self.context = context
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    /// Feeds the next bytes.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        guard EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 else {
            preconditionFailure("\(CryptoError.openSSL("EVP_DigestUpdate SHA-256"))")
        }
    }

    /// The 32-byte digest of everything fed so far; the hasher starts over afterwards.
    public func finalize() -> Data {
        var digest = Data(count: 32)
        var written: UInt32 = 0
        let status = digest.withUnsafeMutableBytes {
            EVP_DigestFinal_ex(context, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), &written)
        }
        guard status == 1, written == 32, EVP_DigestInit_ex(context, switchyard_digest(SWITCHYARD_SHA256), nil) == 1 else {
            preconditionFailure("\(CryptoError.openSSL("EVP_DigestFinal_ex SHA-256"))")
        }
        return digest
    }
}

extension DownloadChecksum {
    /// A SHA-256 checksum given in hexadecimal; `nil` when `hex` is not 64 hexadecimal digits.
    ///
    /// ```swift
    /// var download = DownloadOptions(checksum: .sha256(hex: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
    /// ```
    public static func sha256(hex: String) -> DownloadChecksum? {
        guard hex.utf8.count == 64 else { return nil }
        return DownloadChecksum(algorithm: "SHA-256", hex: hex) { SHA256Hasher() }
    }
}

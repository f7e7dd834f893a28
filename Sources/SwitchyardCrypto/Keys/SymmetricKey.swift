import COpenSSL
public import Foundation

/// A secret key for AES, HMAC and HKDF.
///
/// The bytes live in storage that is wiped with `OPENSSL_cleanse` when the last copy of the key goes
/// away. `==` compares in constant time, and neither ``description``, ``debugDescription`` nor a
/// mirror (`dump`) ever shows key bytes:
///
/// ```swift
/// let key = try SymmetricKey.random(byteCount: 32)
/// print(key)            // SymmetricKey(32 bytes, redacted)
/// let box = try AESGCM.seal(Data("hello".utf8), using: key)
/// ```
public struct SymmetricKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    let storage: KeyStorage

    /// Creates a key from a copy of `bytes` (for example a `Data` or `[UInt8]`).
    ///
    /// Any length is accepted here; each algorithm checks the size it needs and throws
    /// ``CryptoError/Code/invalidKeySize`` otherwise.
    public init(_ bytes: some ContiguousBytes) {
        storage = bytes.withUnsafeBytes { KeyStorage(copying: $0) }
    }

    init(storage: KeyStorage) {
        self.storage = storage
    }

    /// A key of `byteCount` bytes from OpenSSL's secure random generator (`RAND_bytes`).
    ///
    /// - Parameter byteCount: the key size, at least 1 (use 32 for AES-256-GCM and HMAC-SHA256).
    /// - Throws: ``CryptoError/Code/invalidKeySize`` if `byteCount` is not positive,
    ///   ``CryptoError/Code/randomFailure`` if the generator fails.
    public static func random(byteCount: Int) throws(CryptoError) -> SymmetricKey {
        guard byteCount > 0 else {
            throw CryptoError(code: .invalidKeySize, message: "A random key needs a positive size, not \(byteCount).")
        }
        let storage = try KeyStorage(byteCount: byteCount) { buffer throws(CryptoError) in
            try SecureRandom.fill(buffer)
        }
        return SymmetricKey(storage: storage)
    }

    /// The key's size in bytes.
    public var byteCount: Int { storage.bytes.count }

    /// Calls `body` with the key bytes. Do not let the pointer escape `body`.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(storage) { () throws(E) -> R in
            try body(UnsafeRawBufferPointer(storage.bytes))
        }
    }

    /// Compares two keys in constant time (`CRYPTO_memcmp`); keys of different sizes are unequal.
    public static func == (lhs: SymmetricKey, rhs: SymmetricKey) -> Bool {
        lhs.withUnsafeBytes { left in
            rhs.withUnsafeBytes { right in ConstantTime.equals(left, right) }
        }
    }

    /// `SymmetricKey(<n> bytes, redacted)` — never the key bytes.
    public var description: String { "SymmetricKey(\(byteCount) bytes, redacted)" }

    /// The same as ``description``: `SymmetricKey(<n> bytes, redacted)`.
    public var debugDescription: String { description }

    /// A mirror that shows only the key's size, so that `dump(key)` prints no key bytes either.
    public var customMirror: Mirror {
        Mirror(self, children: ["byteCount": byteCount, "bytes": "redacted"], displayStyle: .struct)
    }
}

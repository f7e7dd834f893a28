import Foundation
public import Switchyard

extension CacheSealing {
    /// Seals cache entries at rest with AES-256-GCM under `key` (32 bytes); an entry sealed with
    /// another key, or altered on disk, fails to open and is dropped as corrupt.
    ///
    /// Its ``Switchyard/CacheSealing/digest`` is HMAC-SHA-256 under a secret derived from `key` with
    /// HKDF-SHA256 (info `switchyard cache partition digest v1`): a store's partition digests are
    /// keyed by the same secret that seals its entries, so they last as long as the entries they name
    /// and reveal nothing to anyone without the key.
    public static func aesGCM(key: SymmetricKey) -> CacheSealing {
        let aad = Data("switchyard cache entry v1".utf8)
        let digestKey = try? HKDF.deriveKey(
            inputKeyMaterial: key,
            salt: Data(),
            info: Data("switchyard cache partition digest v1".utf8),
            outputByteCount: 32
        )
        var digest: (@Sendable (Data) throws -> Data)?
        if let digestKey {
            digest = { material in try HMAC.authenticationCode(for: material, using: digestKey) }
        }
        return CacheSealing(
            seal: { plaintext in try EncryptionScheme.aes256GCM.seal(plaintext, key: key, aad: aad) },
            open: { sealed in try EncryptionScheme.aes256GCM.open(sealed, key: key, aad: aad) },
            digest: digest
        )
    }
}

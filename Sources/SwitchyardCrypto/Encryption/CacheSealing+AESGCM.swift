import Foundation
public import Switchyard

extension CacheSealing {
    /// Seals cache entries at rest with AES-256-GCM under `key` (32 bytes); an entry sealed with
    /// another key, or altered on disk, fails to open and is dropped as corrupt.
    public static func aesGCM(key: SymmetricKey) -> CacheSealing {
        let aad = Data("switchyard cache entry v1".utf8)
        return CacheSealing(
            seal: { plaintext in try EncryptionScheme.aes256GCM.seal(plaintext, key: key, aad: aad) },
            open: { sealed in try EncryptionScheme.aes256GCM.open(sealed, key: key, aad: aad) }
        )
    }
}

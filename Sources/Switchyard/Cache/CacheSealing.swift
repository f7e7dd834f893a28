public import Foundation

/// How the disk tier seals entries at rest — for example AES-GCM from SwitchyardCrypto
/// (`CacheSealing.aesGCM(key:)`). An entry that fails to open is treated as corrupt.
public struct CacheSealing: Sendable {
    /// Seals a stored entry.
    public let seal: @Sendable (Data) throws -> Data
    /// Opens a stored entry; throws when it was tampered with or sealed with another key.
    public let open: @Sendable (Data) throws -> Data
    /// A keyed digest of a ``CredentialPartition``'s credential material — HMAC-SHA-256 under a
    /// secret of the sealing's own in `CacheSealing.aesGCM(key:)` — or `nil`. It names whose an entry
    /// is, on disk and across restarts, without revealing it: a disk tier keeps entries of a private
    /// partition only when its sealing has a digest, and never writes any other partition digest.
    public let digest: (@Sendable (Data) throws -> Data)?

    /// Creates a sealing.
    ///
    /// - Parameters:
    ///   - seal: seals a stored entry.
    ///   - open: opens a stored entry, throwing when it was tampered with or sealed with another key.
    ///   - digest: a keyed digest of partition material (a MAC under a secret key; never a plain
    ///     hash, which a short account name could be guessed back from); `nil` keeps private entries
    ///     out of the disk tier.
    public init(
        seal: @escaping @Sendable (Data) throws -> Data,
        open: @escaping @Sendable (Data) throws -> Data,
        digest: (@Sendable (Data) throws -> Data)? = nil
    ) {
        self.seal = seal
        self.open = open
        self.digest = digest
    }
}

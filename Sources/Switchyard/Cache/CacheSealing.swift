public import Foundation

/// How the disk tier seals entries at rest — for example AES-GCM from SwitchyardCrypto
/// (`CacheSealing.aesGCM(key:)`). An entry that fails to open is treated as corrupt.
public struct CacheSealing: Sendable {
    /// Seals a stored entry.
    public let seal: @Sendable (Data) throws -> Data
    /// Opens a stored entry; throws when it was tampered with or sealed with another key.
    public let open: @Sendable (Data) throws -> Data

    /// Creates a sealing.
    public init(seal: @escaping @Sendable (Data) throws -> Data, open: @escaping @Sendable (Data) throws -> Data) {
        self.seal = seal
        self.open = open
    }
}

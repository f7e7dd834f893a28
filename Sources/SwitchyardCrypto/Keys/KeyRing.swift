/// The keys of one service (module), by key id, with the one used for new messages.
///
/// Rotate keys without downtime: add the new key, make it current, and remove the old key once no
/// server answers with it any more. Opening accepts every key of the ring; sealing uses ``currentKeyID``.
///
/// ```swift
/// let ring = try KeyRing(currentKeyID: "2026-11", keys: ["2026-11": newKey, "2026-05": oldKey])
/// ```
public struct KeyRing: Sendable, CustomStringConvertible {
    /// The id of the key used to seal.
    public let currentKeyID: String
    private let keys: [String: SymmetricKey]

    /// Creates a key ring.
    ///
    /// - Throws: ``CryptoError/Code/invalidInput`` when an id is not 1–64 characters from
    ///   `A-Z a-z 0-9 - _ .`, or when `currentKeyID` names no key; ``CryptoError/Code/invalidKeySize``
    ///   when a key is empty.
    public init(currentKeyID: String, keys: [String: SymmetricKey]) throws(CryptoError) {
        for id in keys.keys where !Self.isValidID(id) {
            throw CryptoError(code: .invalidInput, message: "'\(id)' is not a valid key id: use 1 to 64 characters from A-Z a-z 0-9 - _ .")
        }
        for (id, key) in keys where key.byteCount == 0 {
            throw CryptoError(code: .invalidKeySize, message: "the key '\(id)' is empty")
        }
        guard keys[currentKeyID] != nil else {
            throw CryptoError(code: .invalidInput, message: "the current key id '\(currentKeyID)' names no key of the ring")
        }
        self.currentKeyID = currentKeyID
        self.keys = keys
    }

    /// A ring with a single key.
    public init(keyID: String, key: SymmetricKey) throws(CryptoError) {
        try self.init(currentKeyID: keyID, keys: [keyID: key])
    }

    /// The key used to seal.
    public var currentKey: SymmetricKey { keys[currentKeyID]! }

    /// The key with an id, if the ring has it.
    public func key(for id: String) -> SymmetricKey? { keys[id] }

    /// The key ids, sorted.
    public var keyIDs: [String] { keys.keys.sorted() }

    /// The keys other than the current one, by sorted id (for framings that name no key id).
    var otherKeys: [SymmetricKey] { keyIDs.filter { $0 != currentKeyID }.compactMap { keys[$0] } }

    /// The ids only: keys never appear in descriptions.
    public var description: String { "KeyRing(current: \(currentKeyID), ids: \(keyIDs.joined(separator: ", ")))" }

    static func isValidID(_ id: String) -> Bool {
        let utf8 = id.utf8
        return (1...64).contains(utf8.count)
            && utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F
                    || $0 == 0x2E
            }
    }
}

import Foundation

/// How a ``CredentialPartition`` digests its credential material: with a key drawn at random for this
/// process (memory only), or with a disk tier's sealing (``CacheSealing/digest``), whose key outlives
/// the process.
struct PartitionDigest: Sendable {
    /// The prefix of digests made with a sealing's key: the only private partitions a disk tier keeps.
    static let keyedPrefix = "k:"

    let digest: @Sendable (String) -> String

    /// This process's digest: two 64-bit SipHash values (the standard library's `Hasher`) of the
    /// material behind a 256-bit key drawn from the system's random source when the process first
    /// needs it. Never written anywhere, and useless without the key, which dies with the process.
    static let process: PartitionDigest = {
        var generator = SystemRandomNumberGenerator()
        let key = (0..<4).map { _ in generator.next() as UInt64 }
        return PartitionDigest { material in
            var first = Hasher()
            first.combine(key[0])
            first.combine(key[1])
            first.combine(material)
            var second = Hasher()
            second.combine(key[2])
            second.combine(key[3])
            second.combine(material)
            return "m:" + hex(UInt64(bitPattern: Int64(first.finalize()))) + hex(UInt64(bitPattern: Int64(second.finalize())))
        }
    }()

    /// A sealing's keyed digest (``CacheSealing/digest``), falling back to this process's for material
    /// it cannot digest (such a partition is then kept in memory only).
    static func keyed(_ digest: @escaping @Sendable (Data) throws -> Data) -> PartitionDigest {
        PartitionDigest { material in
            guard let code = try? digest(Data(material.utf8)), !code.isEmpty else { return process.digest(material) }
            return keyedPrefix + code.map { hex($0) }.joined()
        }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func hex(_ byte: UInt8) -> String {
        byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }
}

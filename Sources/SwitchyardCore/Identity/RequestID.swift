import Synchronization

/// A process-unique identifier given to every call.
///
/// Identifiers are cheap to create (an atomic counter under a random per-process prefix), so every
/// call gets one; cancellation, logging and errors refer to calls by it. The ``description`` is a
/// 17-character hexadecimal form such as `3fa2c1-000000002a`, suitable for an `X-Request-ID` header.
/// The sequence has 40 bits: a process would have to make a trillion calls before one repeats.
public struct RequestID: Sendable, Hashable, CustomStringConvertible {
    /// The per-process prefix in the upper 24 bits and the sequence number in the lower 40 bits.
    public let rawValue: UInt64

    /// Wraps an existing raw value (for tests and for restoring an identifier you stored).
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Returns a fresh identifier, distinct from every other one made by this process.
    public static func next() -> RequestID {
        let sequence = counter.add(1, ordering: .relaxed).newValue
        return RequestID(rawValue: (UInt64(prefix) << 40) | (sequence & 0xFF_FFFF_FFFF))
    }

    /// `prefix-sequence` in lower-case hexadecimal: six digits, a dash, ten digits.
    public var description: String {
        String(unsafeUninitializedCapacity: 17) { text in
            var high = rawValue >> 40
            for index in stride(from: 5, through: 0, by: -1) {
                text[index] = Self.hexDigit(high & 0xF)
                high >>= 4
            }
            text[6] = UInt8(ascii: "-")
            var low = rawValue & 0xFF_FFFF_FFFF
            for index in stride(from: 16, through: 7, by: -1) {
                text[index] = Self.hexDigit(low & 0xF)
                low >>= 4
            }
            return 17
        }
    }

    private static func hexDigit(_ nibble: UInt64) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + UInt8(nibble) : UInt8(ascii: "a") + UInt8(nibble - 10)
    }

    private static let prefix = UInt32.random(in: 1...0xFF_FFFF)
    private static let counter = Atomic<UInt64>(0)
}

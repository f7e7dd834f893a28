import Synchronization

/// A process-unique identifier given to every call.
///
/// Identifiers are cheap to create (an atomic counter under a random per-process prefix), so every
/// call gets one; cancellation, logging and errors refer to calls by it. The ``description`` is a
/// 17-character hexadecimal form such as `3fa2c1d0-0000002a`, suitable for an `X-Request-ID` header.
public struct RequestID: Sendable, Hashable, CustomStringConvertible {
    /// The per-process prefix in the upper 32 bits and the sequence number in the lower 32 bits.
    public let rawValue: UInt64

    /// Wraps an existing raw value (for tests and for restoring an identifier you stored).
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Returns a fresh identifier, distinct from every other one made by this process.
    public static func next() -> RequestID {
        let sequence = counter.add(1, ordering: .relaxed).newValue
        return RequestID(rawValue: (UInt64(prefix) << 32) | (sequence & 0xFFFF_FFFF))
    }

    /// `prefix-sequence` in lower-case hexadecimal.
    public var description: String {
        let high = String(rawValue >> 32, radix: 16)
        let low = String(rawValue & 0xFFFF_FFFF, radix: 16)
        return String(repeating: "0", count: 8 - high.count) + high + "-"
            + String(repeating: "0", count: 8 - low.count) + low
    }

    private static let prefix = UInt32.random(in: 1...UInt32.max)
    private static let counter = Atomic<UInt64>(0)
}

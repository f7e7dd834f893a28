/// Where a response came from.
///
/// A struct with static members rather than an enum, so the modules that answer calls add their own
/// sources — the features' caches and coalescing, a stub of yours — without breaking `switch`
/// statements in your code.
public struct ResponseSource: Sendable, Hashable, CustomStringConvertible {
    /// The source's stable name.
    public let rawValue: String
    /// Creates a source with a stable name.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// The source's stable name.
    public var description: String { rawValue }

    /// The transport fetched it from the backend.
    public static let network = ResponseSource("network")
    /// A stage answered without reaching the transport (a stub, a short-circuit).
    public static let stub = ResponseSource("stub")
}

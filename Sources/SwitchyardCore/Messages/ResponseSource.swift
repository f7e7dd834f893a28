/// Where a response came from.
///
/// A struct with static members rather than an enum, so caching and stubbing modules can add
/// sources without breaking `switch` statements in your code.
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
    /// The response of an identical call in flight, shared under ``SameRequestPolicy/coalesce``.
    public static let shared = ResponseSource("shared")
    /// An in-memory cache answered.
    public static let memoryCache = ResponseSource("memory")
    /// A disk cache answered.
    public static let diskCache = ResponseSource("disk")
    /// A cached response was revalidated by the backend (`304 Not Modified`).
    public static let revalidated = ResponseSource("revalidated")
}

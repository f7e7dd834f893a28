/// How many entries an outbox holds in each state, for an app's UI ("3 orders waiting to be sent").
public struct OutboxCounts: Sendable, Hashable {
    /// Waiting to be sent, or between attempts.
    public var pending = 0
    /// Held back until their account's session begins again.
    public var parked = 0
    /// Accepted by the server.
    public var delivered = 0
    /// Dead letters.
    public var deadLetters = 0
    /// Cancelled or dropped.
    public var cancelled = 0

    /// Creates counts of nothing.
    public init() {}
}

/// How far an upload or a download has got.
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
    /// Bytes transferred so far.
    public var completed: Int64
    /// The total, when known (a `Content-Length`, or the request body's size).
    public var total: Int64?

    /// Creates a progress value.
    public init(completed: Int64, total: Int64?) {
        self.completed = completed
        self.total = total
    }

    /// `completed / total` between 0 and 1, or `nil` when the total is unknown.
    public var fraction: Double? {
        guard let total else { return nil }
        guard total > 0 else { return 1 }
        return min(1, Double(completed) / Double(total))
    }

    /// Whether everything has been transferred (as far as the total is known).
    public var isComplete: Bool { total.map { completed >= $0 } ?? false }

    /// `1024/4096 bytes (25%)`, or `1024 bytes` when the total is unknown.
    public var description: String {
        guard let total, let fraction else { return "\(completed) bytes" }
        return "\(completed)/\(total) bytes (\(Int((fraction * 100).rounded(.down)))%)"
    }
}

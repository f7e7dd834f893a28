import Synchronization

/// Counters shared by every copy of one call's ``CallContext``.
final class CallCounters: Sendable {
    private let sends = Atomic<Int>(0)

    /// Records one request reaching the transport.
    func recordTransportSend() { sends.add(1, ordering: .relaxed) }

    /// How many requests reached the transport.
    var transportSends: Int { sends.load(ordering: .relaxed) }
}

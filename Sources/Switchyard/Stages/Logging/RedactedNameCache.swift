import Synchronization

/// Endpoint names as a ``LoggingStage``'s ``Redaction`` renders them, remembered: a service calls a
/// handful of endpoints, and redacting the same name again on every call is waste. Holds at most
/// ``limit`` names; past that it starts over.
final class RedactedNameCache: Sendable {
    /// The most names remembered at once.
    static let limit = 512

    private let names = Mutex<[String: String]>([:])

    /// `name` as `redaction` renders it (``Redaction/redactTarget(_:)``).
    func redacted(_ name: String, by redaction: Redaction) -> String {
        if let known = names.withLock({ $0[name] }) { return known }
        let redacted = redaction.redactTarget(name)
        names.withLock { names in
            if names.count >= Self.limit { names.removeAll(keepingCapacity: true) }
            names[name] = redacted
        }
        return redacted
    }
}

import Synchronization

/// The endpoint names a ``LoggingStage``'s ``Redaction`` leaves as they are, remembered: a service
/// calls a handful of endpoints, and redacting the same name again on every call is waste.
///
/// Only names with nothing to hide are kept, so the cache never holds a secret; a name the
/// redaction changes is redacted again on each call. It relies on redaction giving the same answer
/// for the same name, as the built-in rules do. Holds at most ``limit`` names; past that it starts over.
final class RedactedNameCache: Sendable {
    /// The most names remembered at once.
    static let limit = 512

    private let unchanged = Mutex<Set<String>>([])

    /// `name` as `redaction` renders it (``Redaction/redactTarget(_:)``).
    func redacted(_ name: String, by redaction: Redaction) -> String {
        if unchanged.withLock({ $0.contains(name) }) { return name }
        let redacted = redaction.redactTarget(name)
        guard redacted == name else { return redacted }
        unchanged.withLock { names in
            if names.count >= Self.limit { names.removeAll(keepingCapacity: true) }
            names.insert(name)
        }
        return redacted
    }
}

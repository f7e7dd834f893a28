import Synchronization

/// The endpoint names and request targets a ``LoggingStage``'s ``Redaction`` leaves as they are,
/// remembered: a service calls a handful of endpoints at a handful of targets, and redacting the
/// same text again on every call is waste.
///
/// Only texts with nothing to hide are kept, so the cache never holds a secret; a text the
/// redaction changes is redacted again on each call. It relies on redaction giving the same answer
/// for the same text, as the built-in rules do. Holds at most ``limit`` texts; past that it starts over.
final class RedactedNameCache: Sendable {
    /// The most texts remembered at once.
    static let limit = 512

    /// A target and the endpoint name it was redacted with (its path template, if any).
    private struct Key: Hashable {
        let target: String
        let template: String
    }

    /// The path (what precedes the `?`) of every remembered target.
    private let unchanged = Mutex<[Key: String]>([:])

    /// `name` as `redaction` renders it (``Redaction/redactTarget(_:)``).
    func redacted(_ name: String, by redaction: Redaction) -> String {
        redactedTarget(name, template: "", by: redaction).whole
    }

    /// `target` as `redaction` renders it with the call's endpoint name `template`, and its path
    /// alone (`Redaction.redactedTarget(_:template:)`).
    func redactedTarget(_ target: String, template: String, by redaction: Redaction) -> (path: String, whole: String) {
        let key = Key(target: target, template: template)
        if let path = unchanged.withLock({ $0[key] }) { return (path, target) }
        let redacted = redaction.redactedTarget(target, template: template)
        guard redacted.whole == target else { return redacted }
        unchanged.withLock { texts in
            if texts.count >= Self.limit { texts.removeAll(keepingCapacity: true) }
            texts[key] = redacted.path
        }
        return redacted
    }
}

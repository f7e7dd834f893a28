import Synchronization

/// The endpoint names and request targets a ``LoggingStage``'s ``Redaction`` leaves as they are,
/// remembered, and the last call's: a service calls a handful of endpoints at a handful of targets,
/// and redacting the same text again on every call is waste.
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

    /// What is remembered: the path (what precedes the `?`) of every unchanged target, and the last
    /// call whose target and endpoint name were both unchanged.
    private struct State {
        var unchanged: [Key: String] = [:]
        var lastCall: (target: String, endpointName: String, path: String)?
    }

    private let state = Mutex(State())

    /// The call's target as `redaction` renders it with its endpoint name as the path template, the
    /// target's path alone, and the endpoint name as `redaction` renders it: what a logged call shows.
    ///
    /// A service's calls mostly repeat the one before, so that call is checked first, by comparing
    /// the texts, before any is hashed.
    func redactedCall(target: String, endpointName: String, by redaction: Redaction) -> (path: String, whole: String, endpointName: String)
    {
        let repeated = state.withLock { state -> String? in
            guard let last = state.lastCall, last.target == target, last.endpointName == endpointName else { return nil }
            return last.path
        }
        if let repeated { return (repeated, target, endpointName) }
        let name = endpointName.isEmpty ? endpointName : redacted(endpointName, by: redaction)
        let rendered = redactedTarget(target, template: endpointName, by: redaction)
        if name == endpointName, rendered.whole == target {
            state.withLock { $0.lastCall = (target, endpointName, rendered.path) }
        }
        return (rendered.path, rendered.whole, name)
    }

    /// `name` as `redaction` renders it (``Redaction/redactTarget(_:)``).
    func redacted(_ name: String, by redaction: Redaction) -> String {
        redactedTarget(name, template: "", by: redaction).whole
    }

    /// `target` as `redaction` renders it with the call's endpoint name `template`, and its path
    /// alone (`Redaction.redactedTarget(_:template:)`).
    func redactedTarget(_ target: String, template: String, by redaction: Redaction) -> (path: String, whole: String) {
        let key = Key(target: target, template: template)
        if let path = state.withLock({ $0.unchanged[key] }) { return (path, target) }
        let redacted = redaction.redactedTarget(target, template: template)
        guard redacted.whole == target else { return redacted }
        state.withLock { state in
            if state.unchanged.count >= Self.limit { state.unchanged.removeAll(keepingCapacity: true) }
            state.unchanged[key] = redacted.path
        }
        return redacted
    }
}

import Synchronization

/// The endpoint names and request paths a ``LoggingStage``'s ``Redaction`` leaves as they are,
/// remembered, and the last call's: a service calls a handful of endpoints at a handful of paths,
/// and redacting the same text again on every call is waste.
///
/// Only texts the redaction left unchanged are kept, so nothing the redaction hid is held; what is
/// held is what the log shows anyway (a plain path, a plain endpoint name), and it lives as long as
/// the stage. A query is redacted on every call: its rules go by parameter name and are cheap, and
/// queries (timestamps, signatures) differ from call to call. Only ASCII texts are kept, compared
/// byte for byte: `String` equality is canonical, and two targets that differ in their bytes must
/// not share a verdict. Nothing is remembered for a redaction with a ``Redaction/PathRule/matching(_:)``
/// rule, whose closure may answer differently for the same segment from one call to the next.
/// Paths and names are held apart, at most ``limit`` of each; past that that set starts over, so
/// paths that differ on every call (ids) never evict the endpoint names.
final class RedactedNameCache: Sendable {
    /// The most paths, and the most endpoint names, remembered at once.
    static let limit = 512

    /// A path and the endpoint name it was redacted with (its path template, if any).
    private struct Key: Hashable {
        let path: String
        let template: String
    }

    /// What is remembered: every unchanged path with its template, every unchanged endpoint name,
    /// and the last call whose path and endpoint name were both unchanged.
    private struct State {
        var paths: Set<Key> = []
        var names: Set<String> = []
        var lastCall: (path: String, endpointName: String)?
    }

    private let state = Mutex(State())

    /// How many paths and endpoint names are remembered; for tests.
    var count: (paths: Int, names: Int) {
        state.withLock { ($0.paths.count, $0.names.count) }
    }

    /// The call's target as `redaction` renders it with its endpoint name as the path template, the
    /// target's path alone, and the endpoint name as `redaction` renders it: what a logged call shows.
    ///
    /// A service's calls mostly repeat the one before, so that call's path and name are compared
    /// first, byte for byte, before anything is hashed.
    func redactedCall(target: String, endpointName: String, by redaction: Redaction) -> (path: String, whole: String, endpointName: String)
    {
        guard !redaction.hasMatchingPathRule else {
            let rendered = redaction.redactedTarget(target, template: endpointName)
            return (rendered.path, rendered.whole, Self.redactedName(endpointName, by: redaction))
        }
        let (pathPart, query) = Request.split(target: target)
        let (path, name) = redactedPath(pathPart, endpointName: endpointName, by: redaction)
        guard let query else { return (path, path, name) }
        return (path, path + "?" + redaction.redactPairs(query), name)
    }

    /// `path` (a target's, without its query) and `endpointName` as `redaction` renders them.
    private func redactedPath(_ path: Substring, endpointName: String, by redaction: Redaction) -> (path: String, name: String) {
        let repeated = state.withLock { state -> String? in
            guard let last = state.lastCall, Self.sameBytes(last.path, path), Self.sameBytes(last.endpointName, endpointName[...]) else {
                return nil
            }
            return last.path
        }
        if let repeated { return (repeated, endpointName) }
        let pathText = String(path)
        guard Self.isASCII(path.utf8), Self.isASCII(endpointName[...].utf8) else {
            return (redaction.redactedTarget(pathText, template: endpointName).path, Self.redactedName(endpointName, by: redaction))
        }
        let key = Key(path: pathText, template: endpointName)
        let known = state.withLock { state in
            (path: state.paths.contains(key), name: endpointName.isEmpty || state.names.contains(endpointName))
        }
        let redactedPath = known.path ? pathText : redaction.redactedTarget(pathText, template: endpointName).path
        let name = known.name ? endpointName : redaction.redactTarget(endpointName)
        let plainPath = known.path || Self.sameBytes(redactedPath, pathText[...])
        let plainName = known.name || Self.sameBytes(name, endpointName[...])
        if plainPath || plainName {
            state.withLock { state in
                if plainPath, !known.path { Self.insert(key, into: &state.paths) }
                if plainName, !known.name { Self.insert(endpointName, into: &state.names) }
                if plainPath, plainName { state.lastCall = (pathText, endpointName) }
            }
        }
        return (redactedPath, name)
    }

    /// `name` as `redaction` renders it; an empty name (a call without an endpoint name) stays empty.
    private static func redactedName(_ name: String, by redaction: Redaction) -> String {
        name.isEmpty ? name : redaction.redactTarget(name)
    }

    /// Adds `element` to `set`, which starts over when it holds ``limit`` elements.
    private static func insert<Element: Hashable>(_ element: Element, into set: inout Set<Element>) {
        if set.count >= limit { set.removeAll(keepingCapacity: true) }
        set.insert(element)
    }

    /// Whether `text` is ASCII, read from its contiguous bytes when it has them (a native string's).
    private static func isASCII(_ text: Substring.UTF8View) -> Bool {
        text.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } } ?? text.allSatisfy { $0 < 0x80 }
    }

    /// Whether `remembered` and `text` are the same bytes (not merely canonically equal), compared
    /// in their contiguous storage when both have it: walking a string's UTF-8 view index by index
    /// costs over ten times as much.
    private static func sameBytes(_ remembered: String, _ text: Substring) -> Bool {
        guard remembered.utf8.count == text.utf8.count else { return false }
        let compared = remembered.utf8.withContiguousStorageIfAvailable { left in
            text.utf8.withContiguousStorageIfAvailable { right in left.elementsEqual(right) }
        }
        return (compared ?? nil) ?? remembered.utf8.elementsEqual(text.utf8)
    }
}

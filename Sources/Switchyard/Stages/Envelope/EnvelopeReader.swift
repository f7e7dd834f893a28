import Foundation

/// Reads members of a JSON envelope by dot-separated key paths (`status.code`), scanning bytes
/// without building a tree; the payload is cut out exactly as sent.
///
/// The body is validated once. Each object a path passes through is scanned for its members; a name
/// the path reads there that appears twice is refused, whatever its values (Foundation's
/// `JSONSerialization` reads the last, a byte scan the first: the reader refuses to pick), and so is
/// any name of that object repeated with a `null` among its values. The paths it reads are named at
/// creation and resolved then, once each, so such an ambiguity fails the creation.
struct EnvelopeReader {
    /// A member found at a path, with the object it lives in and that object's offset in the body.
    private typealias Found = (member: JSONMembers.Member, data: Data, offset: Int)

    private let body: Data
    private let top: JSONMembers.TopLevel
    /// The paths through nested objects (`status.code`) named at creation, resolved, in the order
    /// they were named; a path that leads nowhere is absent. A handful at most: a scan finds one
    /// sooner than a hash would. A path of one name is read from ``top`` as it is asked for.
    private var nested: [(path: String, found: Found)] = []
    /// The paths named at creation: of the one-name paths only they are read from ``top``, whose
    /// other members' names were not checked for repeats. Kept as given, not filtered: a handful.
    private let paths: [String]

    /// Validates `body`, reads its top-level members and resolves `paths`.
    ///
    /// - Throws: ``JSONMembers/ScanError`` when `body` is not a JSON object, when an object on the
    ///   way to one of `paths` names the member the path reads there twice, or names any member twice
    ///   with a `null` among its values.
    init(_ body: Data, paths: [String]) throws(JSONMembers.ScanError) {
        self.body = body
        self.paths = paths
        // Most envelopes name top-level members only (`code`, `msg`, `data`): their paths are the names.
        guard paths.contains(where: { !Self.isName($0) }) else {
            self.top = try JSONMembers.topLevel(of: body, unique: paths)
            return
        }
        // The first name of each path (`status` of `status.code`).
        let firstNames = paths.compactMap { path in
            guard path.utf8.contains(UInt8(ascii: ".")) else { return path.isEmpty ? nil : path }
            return path.split(separator: ".", maxSplits: 1).first.map(String.init)
        }
        self.top = try JSONMembers.topLevel(of: body, unique: firstNames)
        for path in paths where !Self.isName(path) && found(at: path) == nil {
            if let found = try member(at: path) { nested.append((path, found)) }
        }
    }

    /// Whether `path` is one member name, read from the top-level object.
    private static func isName(_ path: String) -> Bool {
        !path.isEmpty && !path.utf8.contains(UInt8(ascii: "."))
    }

    /// The member resolved at `path`, if any.
    private func found(at path: String) -> Found? {
        if Self.isName(path) { return paths.contains(path) ? top[path].map { ($0, body, 0) } : nil }
        for entry in nested where entry.path == path { return entry.found }
        return nil
    }

    /// The member at `path`, a path through nested objects; `nil` when the path leads nowhere.
    private func member(at path: String) throws(JSONMembers.ScanError) -> Found? {
        var names = path.split(separator: ".").map(String.init)
        guard !names.isEmpty, var current = top[names.removeFirst()] else { return nil }
        var data = body
        var offset = 0
        for name in names {
            let inner = data.subdata(in: current.valueRange)
            // Part of the validated body: only its own members need scanning.
            guard inner.first == UInt8(ascii: "{"),
                let next = try JSONMembers.topLevel(of: inner, validated: true, unique: [name])[name]
            else {
                return nil
            }
            offset += current.valueRange.lowerBound
            data = inner
            current = next
        }
        return (current, data, offset)
    }

    /// The byte range of the value at `path` in the whole body.
    func range(at path: String) -> Range<Int>? {
        found(at: path).map { ($0.offset + $0.member.valueRange.lowerBound)..<($0.offset + $0.member.valueRange.upperBound) }
    }

    /// A string's text, or a number's or boolean's literal, at `path`.
    func scalar(at path: String) -> String? {
        found(at: path).flatMap { $0.member.scalarText(in: $0.data) }
    }

    /// Whether the value at `path` is the JSON literal `true` (not the string `"true"`, not `1`).
    func isTrue(at path: String) -> Bool {
        guard let entry = found(at: path), !entry.member.isString else { return false }
        return entry.member.scalarText(in: entry.data) == "true"
    }

    /// The raw bytes of the value at `path`.
    func raw(at path: String) -> Data? {
        found(at: path).map { $0.data.subdata(in: $0.member.valueRange) }
    }
}

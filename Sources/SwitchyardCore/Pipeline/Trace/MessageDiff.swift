/// What a stage changed in a request or a response: the fields, parameters and JSON members it
/// added, changed or removed, and the body before and after when the body changed.
public struct MessageDiff: Sendable, Hashable, Codable {
    /// The changes, in the order of ``FieldChange/Part`` (line, headers, query, form, JSON members),
    /// each part's names sorted.
    public var changes: [FieldChange]
    /// The body before the stage, when it changed it (or answered by itself: `nil`).
    public var bodyBefore: BodySummary?
    /// The body after the stage, when it changed it.
    public var bodyAfter: BodySummary?

    /// Creates a diff.
    ///
    /// - Parameters:
    ///   - changes: the changes.
    ///   - bodyBefore: the body before, when it changed.
    ///   - bodyAfter: the body after, when it changed.
    public init(changes: [FieldChange] = [], bodyBefore: BodySummary? = nil, bodyAfter: BodySummary? = nil) {
        self.changes = changes
        self.bodyBefore = bodyBefore
        self.bodyAfter = bodyAfter
    }

    /// Whether the stage changed nothing.
    public var isEmpty: Bool { changes.isEmpty && bodyBefore == nil && bodyAfter == nil }

    /// The change of `name` in `part`, if any; header names compare case-insensitively.
    ///
    /// - Parameters:
    ///   - part: where the name is.
    ///   - name: a header field, parameter or JSON member path (`user.address.city`, `items[0].id`).
    public subscript(part: FieldChange.Part, name: String) -> FieldChange? {
        changes.first { $0.part == part && (part == .header ? $0.name.lowercased() == name.lowercased() : $0.name == name) }
    }
}

/// One field a stage added, changed or removed: a header field, a query or form parameter, a JSON
/// member, or a part of the request or status line.
public struct FieldChange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Where the field is.
    public enum Part: String, Sendable, Hashable, Codable, Comparable {
        /// The request line (`method`, `target` — the URL without its query) or the status (`status`).
        case line
        /// A header field.
        case header
        /// A query parameter.
        case query
        /// A parameter of a `application/x-www-form-urlencoded` body.
        case form
        /// A member of a JSON body, by its path.
        case json

        /// The order parts are listed in.
        public static func < (lhs: Part, rhs: Part) -> Bool {
            let order: [Part] = [.line, .header, .query, .form, .json]
            return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
        }
    }

    /// What happened to a field.
    public enum Kind: String, Sendable, Hashable {
        /// It was not there before.
        case added
        /// Its value differs.
        case changed
        /// It is not there after.
        case removed
    }

    /// Where the field is.
    public var part: Part
    /// Its name: a header field name, a parameter name, a JSON member path.
    public var name: String
    /// Its value before, redacted; `nil` when it was absent.
    public var before: String?
    /// Its value after, redacted; `nil` when it is absent.
    public var after: String?
    /// Whether the redaction rules hid its values.
    public var isRedacted: Bool

    /// Creates a change.
    ///
    /// - Parameters:
    ///   - part: where the field is.
    ///   - name: its name.
    ///   - before: its value before, redacted.
    ///   - after: its value after, redacted.
    ///   - isRedacted: whether the values shown are the redaction's replacement.
    public init(part: Part, name: String, before: String?, after: String?, isRedacted: Bool = false) {
        self.part = part
        self.name = name
        self.before = before
        self.after = after
        self.isRedacted = isRedacted
    }

    /// Whether it was added, changed or removed.
    public var kind: Kind {
        before == nil ? .added : after == nil ? .removed : .changed
    }

    /// `+header X-Signature=<redacted>`, `~json user.name=Ann→Bob`, `-query debug`.
    public var description: String {
        switch kind {
        case .added: "+\(part.rawValue) \(name)=\(after ?? "")"
        case .removed: "-\(part.rawValue) \(name)"
        case .changed: "~\(part.rawValue) \(name)=\(before ?? "")→\(after ?? "")"
        }
    }
}

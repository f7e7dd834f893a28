import Foundation
import HTTPTypes
import SwitchyardSupport

/// Turns a recorder's steps into a redacted ``PipelineTrace``: diffs of fields, parameters and JSON
/// members, body summaries, the transport's messages. Every value shown passes the redaction first.
struct TraceBuilder {
    let redaction: Redaction
    let detail: PipelineTrace.Detail
    /// The most JSON members of one body a diff compares; a larger body shows its summary only.
    static let maxMembers = 2000
    /// The largest body whose JSON members or form parameters a diff compares.
    static let maxParsedBytes = 1 << 20
    /// How much of a body's redacted text a trace that keeps bodies keeps.
    static let maxBodyText = 64 * 1024

    /// The names a trace's values were hidden for.
    private final class Hidden {
        var names: Set<String> = []
    }

    private let hidden = Hidden()

    init(redaction: Redaction, detail: PipelineTrace.Detail) {
        self.redaction = redaction
        self.detail = detail
    }

    func trace(_ steps: [StageTraceRecorder.Step]) -> PipelineTrace {
        let traced = steps.map(step)
        return PipelineTrace(steps: traced, redactedNames: hidden.names.sorted())
    }

    private func step(_ step: StageTraceRecorder.Step) -> StageTrace {
        let isTransport = step.stage == .transport
        var traced = StageTrace(stage: step.stage, attempt: step.attempt, duration: step.duration, handOvers: step.handOvers)
        if isTransport {
            traced.sent = step.requestIn.map { message(request: $0.head, body: $0.body) }
            traced.received = step.responseIn.map { message(response: $0.head, body: $0.body) }
        } else {
            if let before = step.requestIn, let after = step.requestOut {
                traced.request = diff(request: before, after)
            }
            if let after = step.responseOut {
                traced.response = diff(response: step.responseIn, after)
            }
        }
        if let error = step.error {
            traced.outcome = .threw
            traced.error = "\(error.code): \(redaction.redactMessage(of: error))"
        } else if isTransport {
            traced.outcome = .passed
        } else if step.handOvers == 0 {
            traced.outcome = .answered
        } else if step.handOvers > 1 {
            traced.outcome = .retried
        }
        return traced
    }

    // MARK: Diffs

    private func diff(
        request before: (head: HTTPRequest, body: StageTraceRecorder.Body),
        _ after: (head: HTTPRequest, body: StageTraceRecorder.Body)
    ) -> MessageDiff {
        var changes: [FieldChange] = []
        if before.head.method != after.head.method {
            changes.append(FieldChange(part: .line, name: "method", before: before.head.method.rawValue, after: after.head.method.rawValue))
        }
        let targetBefore = target(before.head)
        let targetAfter = target(after.head)
        if targetBefore != targetAfter {
            changes.append(FieldChange(part: .line, name: "target", before: targetBefore, after: targetAfter))
        }
        changes += headers(before.head.headerFields, after.head.headerFields)
        changes += compare(.query, pairs(query(of: before.head)), pairs(query(of: after.head)))
        let beforeType = before.head.headerFields[.contentType]
        let afterType = after.head.headerFields[.contentType]
        return withBodies(changes, before.body, beforeType, after.body, afterType)
    }

    private func diff(
        response before: (head: HTTPResponse, body: StageTraceRecorder.Body)?,
        _ after: (head: HTTPResponse, body: StageTraceRecorder.Body)
    ) -> MessageDiff {
        var changes: [FieldChange] = []
        if before?.head.status.code != after.head.status.code {
            changes.append(
                FieldChange(
                    part: .line,
                    name: "status",
                    before: before.map { "\($0.head.status.code)" },
                    after: "\(after.head.status.code)"
                )
            )
        }
        changes += headers(before?.head.headerFields ?? [:], after.head.headerFields)
        return withBodies(
            changes,
            before?.body ?? .none,
            before?.head.headerFields[.contentType],
            after.body,
            after.head.headerFields[.contentType]
        )
    }

    /// The changes with those of the body added: its form parameters or JSON members, and its
    /// summaries before and after, when it changed.
    private func withBodies(
        _ changes: [FieldChange],
        _ before: StageTraceRecorder.Body,
        _ beforeType: String?,
        _ after: StageTraceRecorder.Body,
        _ afterType: String?
    ) -> MessageDiff {
        guard !sameBody(before, after) else { return MessageDiff(changes: changes) }
        var changes = changes
        let beforeBytes = bytes(before)
        let afterBytes = bytes(after)
        if isForm(beforeType) || isForm(afterType) {
            changes += compare(.form, pairs(beforeBytes.flatMap(formText)), pairs(afterBytes.flatMap(formText)))
        } else if let beforeMembers = members(beforeBytes, beforeType), let afterMembers = members(afterBytes, afterType) {
            changes += compare(.json, beforeMembers, afterMembers)
        }
        return MessageDiff(changes: changes, bodyBefore: summary(before, beforeType), bodyAfter: summary(after, afterType))
    }

    private func sameBody(_ before: StageTraceRecorder.Body, _ after: StageTraceRecorder.Body) -> Bool {
        switch (before, after) {
        case (.none, .none), (.stream, .stream): true
        case (.bytes(let a), .bytes(let b)): a == b
        case (.file(let a), .file(let b)): a == b
        default: false
        }
    }

    private func bytes(_ body: StageTraceRecorder.Body) -> Data? {
        if case .bytes(let data) = body { return data }
        return nil
    }

    private func isForm(_ type: String?) -> Bool {
        type?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
    }

    private func formText(_ data: Data) -> Substring? {
        guard data.count <= Self.maxParsedBytes else { return nil }
        return Substring(String(decoding: data, as: UTF8.self))
    }

    // MARK: Fields

    /// `scheme://authority/path` without the query, its path redacted like a log's target.
    private func target(_ head: HTTPRequest) -> String {
        let path = head.path ?? ""
        let withoutQuery = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return "\(head.scheme ?? "")://\(head.authority ?? "")\(redaction.redactTarget(withoutQuery))"
    }

    private func query(of head: HTTPRequest) -> Substring? {
        guard let path = head.path, let mark = path.firstIndex(of: "?") else { return nil }
        return path[path.index(after: mark)...]
    }

    /// Header fields by name, several values of one name joined with `, `, secret values hidden.
    private func headers(_ before: HTTPFields, _ after: HTTPFields) -> [FieldChange] {
        func grouped(_ fields: HTTPFields) -> [String: (name: String, value: String)] {
            var result: [String: (name: String, value: String)] = [:]
            for field in fields {
                let key = field.name.canonicalName
                if let existing = result[key] {
                    result[key] = (existing.name, existing.value + ", " + field.value)
                } else {
                    result[key] = (field.name.rawName, field.value)
                }
            }
            return result
        }
        let old = grouped(before)
        let new = grouped(after)
        var changes: [FieldChange] = []
        for key in Set(old.keys).union(new.keys).sorted() where old[key]?.value != new[key]?.value {
            let name = new[key]?.name ?? old[key]?.name ?? key
            let secret = HTTPField.Name(name).map { redaction.isSensitive($0) } ?? redaction.isSensitive(name)
            changes.append(field(.header, name, old[key]?.value, new[key]?.value, secret: secret) { redaction.redactURLs(in: $0) })
        }
        return changes
    }

    /// `name=value&…` pairs, percent-decoded, several values of one name joined with `,`.
    private func pairs(_ text: Substring?) -> [String: Value] {
        guard let text, !text.isEmpty else { return [:] }
        var result: [String: Value] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentEncoding.decode(parts[0])
            let value = parts.count > 1 ? PercentEncoding.decode(parts[1]) : ""
            if let existing = result[name] {
                result[name] = Value(text: existing.text + "," + value, kind: 0)
            } else {
                result[name] = Value(text: value, kind: 0)
            }
        }
        return result
    }

    /// A value as a diff compares it: its text and a kind, so that `"1"` and `1` differ.
    struct Value: Equatable {
        var text: String
        var kind: Int
    }

    private func compare(_ part: FieldChange.Part, _ before: [String: Value], _ after: [String: Value]) -> [FieldChange] {
        var changes: [FieldChange] = []
        for name in Set(before.keys).union(after.keys).sorted() where before[name] != after[name] {
            let secret = part == .json ? isSecretPath(name) : redaction.isSensitive(name)
            changes.append(
                field(part, name, before[name]?.text, after[name]?.text, secret: secret) { value in
                    part == .json ? value : redaction.redactValue(value, named: name)
                }
            )
        }
        return changes
    }

    /// One change, its values hidden when `secret`, shown through `show` otherwise.
    private func field(
        _ part: FieldChange.Part,
        _ name: String,
        _ before: String?,
        _ after: String?,
        secret: Bool,
        show: (String) -> String
    ) -> FieldChange {
        if secret {
            hidden.names.insert(name)
            return FieldChange(
                part: part,
                name: name,
                before: before.map { _ in redaction.replacement },
                after: after.map { _ in redaction.replacement },
                isRedacted: true
            )
        }
        return FieldChange(part: part, name: name, before: before.map(show), after: after.map(show))
    }

    // MARK: JSON

    /// A JSON body's members by path (`a.b`, `items[0].id`), leaves only; `nil` when the body is not
    /// JSON, is too large, or has too many members.
    private func members(_ data: Data?, _ type: String?) -> [String: Value]? {
        guard let data else { return [:] }
        guard data.count <= Self.maxParsedBytes else { return nil }
        let first = data.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        guard (type?.lowercased().contains("json") ?? false) || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        var result: [String: Value] = [:]
        var count = 0
        func walk(_ value: Any, _ path: String) -> Bool {
            count += 1
            guard count <= Self.maxMembers else { return false }
            if let dictionary = value as? [String: Any] {
                if dictionary.isEmpty { result[path] = Value(text: "{}", kind: 4) }
                for (key, member) in dictionary where !walk(member, path.isEmpty ? key : path + "." + key) { return false }
            } else if let array = value as? [Any] {
                if array.isEmpty { result[path] = Value(text: "[]", kind: 5) }
                for (index, element) in array.enumerated() where !walk(element, path + "[\(index)]") { return false }
            } else if let string = value as? String {
                result[path] = Value(text: string, kind: 1)
            } else if value is NSNull {
                result[path] = Value(text: "null", kind: 2)
            } else {
                result[path] = Value(text: "\(value)", kind: 3)
            }
            return true
        }
        return walk(object, "") ? result : nil
    }

    /// Whether any member name along a JSON path is secret.
    private func isSecretPath(_ path: String) -> Bool {
        path.split(whereSeparator: { $0 == "." || $0 == "[" }).contains { component in
            !component.hasSuffix("]") && redaction.isSensitive(component)
        }
    }

    // MARK: Messages

    private func summary(_ body: StageTraceRecorder.Body, _ type: String?) -> BodySummary? {
        switch body {
        case .none: return nil
        case .stream: return BodySummary(size: 0, mediaType: type, digest: "", isStream: true)
        case .file(let size): return BodySummary(size: size, mediaType: type, digest: "", isStream: true)
        case .bytes(let data):
            // Text is digested as a log would show it, so that a secret inside cannot be guessed.
            let shown = Redaction.text(data) != nil ? redaction.redactBody(data, contentType: type).map { Data($0.utf8) } : nil
            let digest = FNV1a.hash(shown ?? data)
            return BodySummary(size: data.count, mediaType: type, digest: String(digest, radix: 16))
        }
    }

    private func message(request head: HTTPRequest, body: StageTraceRecorder.Body) -> TracedMessage {
        let target = "\(head.scheme ?? "")://\(head.authority ?? "")\(redaction.redactTarget(head.path ?? ""))"
        for (name, _) in pairs(query(of: head)) where redaction.isSensitive(name) { hidden.names.insert(name) }
        return TracedMessage(
            line: "\(head.method.rawValue) \(target)",
            headerFields: fields(head.headerFields),
            body: summary(body, head.headerFields[.contentType]),
            bodyText: text(body, head.headerFields[.contentType])
        )
    }

    private func message(response head: HTTPResponse, body: StageTraceRecorder.Body) -> TracedMessage {
        TracedMessage(
            line: "\(head.status.code) \(head.status.reasonPhrase)",
            headerFields: fields(head.headerFields),
            body: summary(body, head.headerFields[.contentType]),
            bodyText: text(body, head.headerFields[.contentType])
        )
    }

    private func fields(_ fields: HTTPFields) -> [[String]] {
        fields.map { field in
            if redaction.isSensitive(field.name) {
                hidden.names.insert(field.name.rawName)
                return [field.name.rawName, redaction.replacement]
            }
            return [field.name.rawName, redaction.redactURLs(in: field.value)]
        }
    }

    private func text(_ body: StageTraceRecorder.Body, _ type: String?) -> String? {
        guard detail == .bodies, case .bytes(let data) = body else { return nil }
        guard let text = redaction.redactBody(data.prefix(Self.maxBodyText), contentType: type) else { return nil }
        return text
    }
}

import Foundation
import HTTPTypes
import Switchyard
import SwitchyardSupport

/// How messages become fixture entries and how entries are matched: the redaction that hides
/// secrets and the field names whose values are ignored.
struct FixtureRules: Sendable {
    /// What a recorded request holds in place of an ignored field's value.
    static let ignoredPlaceholder = "<ignored>"

    /// The rules for secrets; their ``Redaction/replacement`` replaces a secret's value.
    let redaction: Redaction
    /// Lower-cased names of query parameters, form fields, JSON members (at any depth) and header
    /// fields whose values neither matter for matching nor reach a file.
    let ignored: Set<String>

    init(redaction: Redaction, ignoring names: Set<String>) {
        self.redaction = redaction
        self.ignored = Set(names.map { $0.lowercased() })
    }

    func isIgnored(_ name: some StringProtocol) -> Bool { ignored.contains(name.lowercased()) }

    // MARK: Recording

    /// The request as a file holds it.
    func describe(_ request: Request, context: CallContext, stage: StageID) throws(SwitchyardError) -> FixtureRequest {
        let bytes = try request.bodyBytes(for: stage)
        let headers = request.headerFields.map { field -> (String, String) in
            let name = field.name.canonicalName
            if redaction.isSensitive(field.name) { return (name, redaction.replacement) }
            return (name, isIgnored(name) ? Self.ignoredPlaceholder : field.value)
        }
        return FixtureRequest(
            method: request.method.rawValue,
            endpoint: redaction.redactTarget(context.endpointName),
            path: redaction.redactTarget(String(request.pathWithoutQuery)),
            query: request.query.map { pairs($0).sorted() } ?? [],
            headers: headers.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
                .map { "\($0.element.0): \($0.element.1)" },
            body: bytes.flatMap { body(of: $0, contentType: request.headerFields[.contentType], ignoring: true) }
        )
    }

    /// The response as a file holds it: its framing fields (which replay recomputes) left out.
    func describe(_ response: Response, stage: StageID) throws(SwitchyardError) -> FixtureResponse {
        let bytes = try response.bodyBytes(for: stage)
        let framing: Set<HTTPField.Name> = [.contentLength, .transferEncoding, .connection]
        return FixtureResponse(
            status: response.status.code,
            headers: response.headerFields.filter { !framing.contains($0.name) }.map { field in
                "\(field.name.canonicalName): \(redaction.isSensitive(field.name) ? redaction.replacement : field.value)"
            },
            body: body(of: bytes, contentType: response.headerFields[.contentType], ignoring: false)
        )
    }

    /// `name=value` pairs with secret values replaced (inside JSON values too) and, when asked,
    /// ignored ones' values replaced.
    private func pairs(_ text: Substring, ignoring: Bool = true) -> [String] {
        text.split(separator: "&").map { pair in
            let name = pair.firstIndex(of: "=").map { pair[..<$0] } ?? pair
            if ignoring, isIgnored(PercentEncoding.decode(name)) { return name + "=" + Self.ignoredPlaceholder }
            return redaction.redactPairs(pair)
        }
    }

    /// A body as a file holds it, or `nil` when it is empty.
    private func body(of bytes: Data, contentType: String?, ignoring: Bool) -> FixtureBody? {
        guard !bytes.isEmpty else { return nil }
        let type = contentType?.lowercased() ?? ""
        if ignoring, type.hasPrefix("application/x-www-form-urlencoded"), let text = String(data: bytes, encoding: .utf8) {
            return FixtureBody(form: pairs(Substring(text)).sorted())
        }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        // A body sits 8 levels down in its file, which may nest at most FixtureJSON.maxDepth levels.
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "["), !FixtureJSON.isTooDeep(bytes, limit: FixtureJSON.maxDepth - 8),
            let json = try? JSONDecoder().decode(FixtureJSON.self, from: bytes)
        {
            return FixtureBody(
                json: json.rewritingMembers { name in
                    if redaction.isSensitive(name) { return .replace(.string(redaction.replacement)) }
                    return ignoring && isIgnored(name) ? .replace(.string(Self.ignoredPlaceholder)) : .keep
                }
                // A value that carries pairs (an echoed query, a URL) has its secret ones hidden too.
                .mappingStrings { $0.contains("=") ? redaction.redactPairs(Substring($0)) : $0 }
            )
        }
        guard String(data: bytes, encoding: .utf8) != nil else { return FixtureBody(base64: bytes.base64EncodedString()) }
        // Text the redaction would not show in a log (a bare token under `application/jwt`) is not kept.
        return FixtureBody(text: redaction.redactBody(bytes, contentType: contentType) ?? redaction.replacement)
    }

    // MARK: Matching

    /// What a request is matched by: method, endpoint, path, query and body, without the ignored fields.
    func key(_ request: FixtureRequest) -> FixtureKey {
        FixtureKey(
            method: request.method,
            endpoint: request.endpoint,
            path: request.path,
            query: request.query.filter { !isIgnored(PercentEncoding.decode(Self.name(of: $0))) },
            body: request.body.map { body in
                var body = body
                body.json = body.json?.rewritingMembers { isIgnored($0) ? .remove : .keep }
                body.form = body.form?.filter { !isIgnored(PercentEncoding.decode(Self.name(of: $0))) }
                return body
            }
        )
    }

    /// The name part of a `name=value` pair.
    static func name(of pair: String) -> Substring {
        pair.firstIndex(of: "=").map { pair[..<$0] } ?? pair[...]
    }
}

/// The parts of a recorded request a replay matches on.
struct FixtureKey: Hashable, Sendable {
    var method: String
    var endpoint: String
    var path: String
    var query: [String]
    var body: FixtureBody?

    /// `GET /users-api/users/1 (GetUser)`: no query values, no body — safe for error text.
    var summary: String { "\(method) \(path) (\(endpoint))" }

    /// The parts in which `other` differs, named for a person and without any value.
    func differences(from other: FixtureKey) -> [String] {
        var parts: [String] = []
        if method != other.method { parts.append("method") }
        if endpoint != other.endpoint { parts.append("endpoint") }
        if path != other.path { parts.append("path") }
        if query != other.query {
            let mine = Dictionary(query.map { (String(FixtureRules.name(of: $0)), $0) }, uniquingKeysWith: { $0 + "&" + $1 })
            let theirs = Dictionary(other.query.map { (String(FixtureRules.name(of: $0)), $0) }, uniquingKeysWith: { $0 + "&" + $1 })
            let names = Set(mine.keys).union(theirs.keys).filter { mine[$0] != theirs[$0] }.sorted()
            parts.append("query (" + names.joined(separator: ", ") + ")")
        }
        if body != other.body {
            if let mine = body?.json, let theirs = other.body?.json {
                let members = mine.differingMembers(from: theirs).map { $0.isEmpty ? "(the whole value)" : $0 }
                parts.append("body members (" + members.joined(separator: ", ") + ")")
            } else if let mine = body?.form, let theirs = other.body?.form {
                let names = Set(mine).symmetricDifference(theirs).map { String(FixtureRules.name(of: $0)) }
                parts.append("form fields (" + Set(names).sorted().joined(separator: ", ") + ")")
            } else {
                parts.append("body")
            }
        }
        return parts
    }
}

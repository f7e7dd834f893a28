public import Foundation
public import HTTPTypes

/// What ``LoggingStage`` hides: header fields, query and form parameters, and JSON members whose
/// names mark them as secrets.
///
/// By default `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` are hidden, and so is
/// every header field, parameter or JSON member (at any depth) whose name contains — ignoring case —
/// `token`, `password`, `secret`, `key` or `sign`. Values are replaced by ``replacement`` before any
/// truncation, so no part of a secret reaches a log line. A form field whose value is itself JSON
/// (`data={…}`) is redacted inside as well.
public struct Redaction: Sendable {
    /// Header fields hidden whatever their name says.
    public var headerNames: Set<HTTPField.Name>
    /// Lower-case name fragments that mark a header field, parameter or JSON member as secret.
    public var nameFragments: [String]
    /// What a hidden value is replaced with.
    public var replacement: String

    /// The default list described above.
    public static let `default` = Redaction()

    /// Hides nothing; for local debugging only.
    public static let none = Redaction(headerNames: [], nameFragments: [])

    /// Creates a redaction list.
    public init(
        headerNames: Set<HTTPField.Name> = [.authorization, .proxyAuthorization, .cookie, .setCookie],
        nameFragments: [String] = ["token", "password", "secret", "key", "sign"],
        replacement: String = "<redacted>"
    ) {
        self.headerNames = headerNames
        self.nameFragments = nameFragments.map { $0.lowercased() }
        self.replacement = replacement
    }

    /// Whether a parameter or member name marks a secret.
    public func isSensitive(_ name: some StringProtocol) -> Bool {
        guard !nameFragments.isEmpty else { return false }
        let lowered = name.lowercased()
        return nameFragments.contains { lowered.contains($0) }
    }

    /// Whether a header field's value is hidden.
    public func isSensitive(_ field: HTTPField.Name) -> Bool {
        headerNames.contains(field) || isSensitive(field.canonicalName)
    }

    /// `Name: value` lines with secret values replaced.
    public func render(_ fields: HTTPFields) -> [String] {
        fields.map { "\($0.name): \(isSensitive($0.name) ? replacement : $0.value)" }
    }

    /// A request target (`/path?query`) with secret query values replaced.
    public func redactTarget(_ target: String) -> String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        return String(target[...mark]) + redactPairs(target[target.index(after: mark)...])
    }

    /// `a=1&b=2` text with secret values replaced; a value that is itself JSON is redacted inside.
    public func redactPairs(_ pairs: Substring) -> String {
        pairs.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            if isSensitive(PercentEncoding.decode(name)) { return name + "=" + replacement }
            let value = PercentEncoding.decode(pair[pair.index(after: equals)...])
            guard let first = value.utf8.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return String(pair) }
            return name + "=" + redactJSON(Data(value.utf8))
        }.joined(separator: "&")
    }

    /// JSON text with the values of secret members replaced, at every depth; everything else is
    /// kept as it was. Malformed input is scanned as far as it goes, never trusted to hide less.
    public func redactJSON(_ json: Data) -> String {
        guard !nameFragments.isEmpty else { return String(decoding: json, as: UTF8.self) }
        let quotedReplacement = Array(("\"" + replacement + "\"").utf8)
        let output = JSONScan.rewritingMembers([UInt8](json)) { name in isSensitive(name) ? .replaceValue(quotedReplacement) : .keep }
        return String(decoding: output, as: UTF8.self)
    }
}

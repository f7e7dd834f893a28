public import Foundation
public import HTTPTypes
import SwitchyardSupport

/// What `LoggingStage` and ``SwitchyardError/debugDescription`` hide: header fields, query and form
/// parameters, JSON members and path segments that carry secrets.
///
/// By default:
/// - `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` are hidden;
/// - so is every header field, parameter or JSON member (at any depth) whose name contains — ignoring
///   case — one of the ``nameFragments``: `token`, `password`, `passwd`, `passcode`, `secret`, `key`
///   (which covers `apikey` and `api_key`), `sign`, `session` or `credential`;
/// - and every one whose name, or one word of it, is one of the ``names``: `auth`, `sid`, `pwd`,
///   `pin`, `otp`, `jwt`, `cvv` or `cvc`. These short names would hide far too much as fragments
///   (`sid` is in `inside`, `pin` in `shipping`, `auth` in `author`), so they match whole words only:
///   `sid`, `user_sid`, `X-Sid` and `userSid` are hidden, `inside` and `side` are not;
/// - and every path segment that follows a segment named like a secret by those same rules, as a
///   parameter's name hides its value: `/password-reset/<redacted>`, `/users/42/tokens/<redacted>`,
///   `/auth/<redacted>` (a literal segment is hidden too: redaction cannot tell it from a value);
///   with a call's path template, the value of a placeholder named like a secret (`/users/{apiKey}`)
///   (see ``redactTarget(_:)``);
/// - and every path segment that looks like a secret (``PathRule/secretShaped``). A service whose
///   paths carry secrets in plain sight adds rules such as ``PathRule/after(_:)``:
///   `/files/abc123/download` is then logged as `/files/<redacted>/download` with `.after("files")`.
///
/// `code` is not hidden by default, because the envelope's business code and many harmless codes
/// (`countryCode`) share the name; a service that sends OAuth authorization codes adds it to ``names``.
///
/// Values are replaced by ``replacement`` before any truncation, so no part of a secret reaches a log
/// line. A form field whose value is itself JSON (`data={…}`) is redacted inside as well. Bodies are
/// redacted by what their bytes are, not by the content type they declare (see
/// ``redactBody(_:contentType:)``).
///
/// ```swift
/// var redaction = Redaction.default
/// redaction.pathRules.append(.after("reset"))
/// redaction.names.insert("code")
/// let logging = LoggingStage(redaction: redaction)
/// ```
public struct Redaction: Sendable {
    /// Header fields hidden whatever their name says.
    public var headerNames: Set<HTTPField.Name>
    /// Lower-case name fragments that mark a header field, parameter or JSON member as secret
    /// wherever they appear in its name.
    public var nameFragments: [String] {
        didSet { matcher = RedactionNameMatcher(fragments: nameFragments, names: names) }
    }
    /// Lower-case names that mark a header field, parameter or JSON member as secret when they are
    /// the whole name or one word of it, ignoring case. Words are separated by `_`, `-`, `.`, any
    /// other character that is not a letter or digit, and a change from lower to upper case.
    public var names: Set<String> {
        didSet { matcher = RedactionNameMatcher(fragments: nameFragments, names: names) }
    }
    /// The rules that hide path segments of a request target.
    public var pathRules: [PathRule] {
        didSet { hasMatchingPathRule = pathRules.contains { $0.isMatching } }
    }
    /// Whether a ``PathRule/matching(_:)`` rule is among ``pathRules``: its closure may answer
    /// differently for the same segment from one call to the next, so no verdict may be remembered.
    package private(set) var hasMatchingPathRule: Bool
    /// What a hidden value is replaced with.
    public var replacement: String
    /// ``nameFragments`` and ``names`` prepared for judging ASCII names byte by byte.
    private var matcher: RedactionNameMatcher

    /// The default list described above.
    public static let `default` = Redaction()

    /// Hides nothing; for local debugging only.
    public static let none = Redaction(headerNames: [], nameFragments: [], names: [], pathRules: [])

    /// The default ``nameFragments``.
    public static let defaultNameFragments = [
        "token", "password", "passwd", "passcode", "secret", "key", "sign", "session", "credential",
    ]

    /// The default ``names``.
    public static let defaultNames: Set<String> = ["auth", "sid", "pwd", "pin", "otp", "jwt", "cvv", "cvc"]

    /// Creates a redaction list.
    ///
    /// - Parameters:
    ///   - headerNames: header fields hidden whatever their name says.
    ///   - nameFragments: fragments that hide a name wherever they appear in it.
    ///   - names: names that hide a name when they are all of it or one of its words.
    ///   - pathRules: the rules that hide path segments.
    ///   - replacement: what a hidden value is replaced with.
    public init(
        headerNames: Set<HTTPField.Name> = [.authorization, .proxyAuthorization, .cookie, .setCookie],
        nameFragments: [String] = Redaction.defaultNameFragments,
        names: Set<String> = Redaction.defaultNames,
        pathRules: [PathRule] = [.secretShaped],
        replacement: String = "<redacted>"
    ) {
        self.headerNames = headerNames
        self.nameFragments = nameFragments.map { $0.lowercased() }
        self.names = Set(names.map { $0.lowercased() })
        self.pathRules = pathRules
        self.hasMatchingPathRule = pathRules.contains { $0.isMatching }
        self.replacement = replacement
        self.matcher = RedactionNameMatcher(fragments: self.nameFragments, names: self.names)
    }

    /// Whether any name can be hidden at all.
    var hidesNames: Bool { !nameFragments.isEmpty || !names.isEmpty }

    /// Whether a parameter or member name marks a secret.
    public func isSensitive(_ name: some StringProtocol) -> Bool {
        guard hidesNames else { return false }
        if let verdict = isSensitiveASCII(name) { return verdict }
        let lowered = name.lowercased()
        if nameFragments.contains(where: { lowered.contains($0) }) { return true }
        guard !names.isEmpty else { return false }
        if names.contains(lowered) { return true }
        return containsSensitiveWord(name)
    }

    /// Whether one word of `name` is one of ``names``.
    private func containsSensitiveWord(_ name: some StringProtocol) -> Bool {
        var word = ""
        var previousIsLowercase = false
        for character in name {
            guard character.isLetter || character.isNumber else {
                if !word.isEmpty, names.contains(word) { return true }
                word = ""
                previousIsLowercase = false
                continue
            }
            if character.isUppercase, previousIsLowercase {
                if names.contains(word) { return true }
                word = ""
            }
            word += character.lowercased()
            previousIsLowercase = character.isLowercase
        }
        return !word.isEmpty && names.contains(word)
    }

    /// ``isSensitive(_:)``'s verdict on an ASCII name of at most 256 bytes, read byte by byte without
    /// allocating (every path segment of every logged call is judged); `nil` for any other name.
    private func isSensitiveASCII(_ name: some StringProtocol) -> Bool? {
        let utf8 = name.utf8
        let count = utf8.count
        guard count <= 256 else { return nil }
        let matcher = matcher
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(count, 1)) { buffer -> Bool? in
            var position = 0
            for byte in utf8 {
                guard byte < 0x80 else { return nil }
                buffer[position] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                position += 1
            }
            let lowered = UnsafeBufferPointer(rebasing: buffer[..<count])
            if matcher.containsFragment(lowered) { return true }
            guard !names.isEmpty else { return false }
            let isName = { (range: Range<Int>) in
                matcher.mayBeName(lowered, range) && names.contains(String(decoding: lowered[range], as: UTF8.self))
            }
            if isName(0..<count) { return true }
            // Words, split as containsSensitiveWord(_:) splits them.
            var wordStart: Int?
            var previousIsLowercase = false
            position = 0
            for byte in utf8 {
                let isLowercase = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
                let isUppercase = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
                if isLowercase || isUppercase || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
                    if isUppercase, previousIsLowercase, let start = wordStart {
                        if isName(start..<position) { return true }
                        wordStart = position
                    }
                    wordStart = wordStart ?? position
                    previousIsLowercase = isLowercase
                } else {
                    if let start = wordStart, isName(start..<position) { return true }
                    wordStart = nil
                    previousIsLowercase = false
                }
                position += 1
            }
            return wordStart.map { isName($0..<count) } ?? false
        }
    }

    /// Whether a header field's value is hidden.
    public func isSensitive(_ field: HTTPField.Name) -> Bool {
        headerNames.contains(field) || isSensitive(field.canonicalName)
    }

    /// `Name: value` lines with secret values replaced.
    public func render(_ fields: HTTPFields) -> [String] {
        fields.map { "\($0.name): \(isSensitive($0.name) ? replacement : $0.value)" }
    }

    /// Free text (an underlying error's description, say) with every URL in it redacted like a
    /// target: user information, secret query values and the path segments ``pathRules`` hide.
    ///
    /// ```swift
    /// Redaction.default.redactURLs(in: "failed: https://api.test/me?access_token=abc")
    /// // "failed: https://api.test/me?access_token=<redacted>"
    /// ```
    public func redactURLs(in text: String) -> String {
        guard text.contains("://") else { return text }
        let characters = Array(text)
        var output = ""
        var index = 0
        while index < characters.count {
            guard let schemeEnd = Self.schemeSeparator(in: characters, from: index) else {
                output += String(characters[index...])
                break
            }
            var start = schemeEnd
            while start > index, characters[start - 1].isLetter || characters[start - 1].isNumber || "+.-".contains(characters[start - 1]) {
                start -= 1
            }
            var end = schemeEnd + 3
            while end < characters.count, !characters[end].isWhitespace, !"\"'<>,)]}".contains(characters[end]) { end += 1 }
            output += String(characters[index..<start])
            output += redactURL(String(characters[start..<end]))
            index = end
        }
        return output
    }

    /// One URL with its user information, secret query values and hidden path segments replaced.
    private func redactURL(_ url: String) -> String {
        guard let separator = url.range(of: "://") else { return url }
        let afterScheme = url[separator.upperBound...]
        let targetStart = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
        var authority = String(afterScheme[..<targetStart])
        if let at = authority.lastIndex(of: "@") { authority = replacement + authority[at...] }
        let target = afterScheme[targetStart...]
        return url[..<separator.upperBound] + authority + (target.isEmpty ? "" : redactTarget(String(target)))
    }

    /// The index of the next `://` at or after `start`.
    private static func schemeSeparator(in characters: [Character], from start: Int) -> Int? {
        var index = start
        while index + 2 < characters.count {
            if characters[index] == ":", characters[index + 1] == "/", characters[index + 2] == "/" { return index }
            index += 1
        }
        return nil
    }

    /// `a=1&b=2` text with secret values replaced; a value that is itself JSON is redacted inside.
    public func redactPairs(_ pairs: Substring) -> String {
        pairs.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            if isSensitive(PercentEncoding.decode(name)) { return name + "=" + replacement }
            let value = PercentEncoding.decode(pair[pair.index(after: equals)...])
            guard Self.opensJSON(value) else { return String(pair) }
            return name + "=" + redactJSON(Data(value.utf8))
        }.joined(separator: "&")
    }

    /// One decoded parameter's value as it may be shown: ``replacement`` when `name` is secret, the
    /// value redacted inside when it is itself JSON, otherwise the value as it is — the rule
    /// ``redactPairs(_:)`` applies to each pair, for a parameter already split and percent-decoded
    /// (a query parameter or a cookie in a `HARRecordingStage`'s archive).
    public func redactValue(_ value: String, named name: some StringProtocol) -> String {
        if isSensitive(name) { return replacement }
        return Self.opensJSON(value) ? redactJSON(Data(value.utf8)) : value
    }

    /// Whether decoded text opens like a JSON object or array.
    private static func opensJSON(_ value: String) -> Bool {
        guard let first = value.utf8.first else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// JSON text with the values of secret members replaced, at every depth; everything else is
    /// kept as it was. Malformed input is scanned as far as it goes, never trusted to hide less.
    public func redactJSON(_ json: Data) -> String {
        guard hidesNames else { return String(decoding: json, as: UTF8.self) }
        let quotedReplacement = Array(("\"" + replacement + "\"").utf8)
        let output = JSONScan.rewritingMembers([UInt8](json)) { name in isSensitive(name) ? .replaceValue(quotedReplacement) : .keep }
        return String(decoding: output, as: UTF8.self)
    }

    /// An error's message with any secret JSON members it quotes hidden and every URL in it redacted
    /// (``redactURLs(in:)``): what `LoggingStage` logs and a `HARRecordingStage` records.
    package func redactMessage(of error: SwitchyardError) -> String {
        let message = error.message.contains("\"") ? redactJSON(Data(error.message.utf8)) : error.message
        return redactURLs(in: message)
    }

    /// A request or response body as text with its secrets hidden, judged by its bytes rather than
    /// the content type it declares; `nil` when the body must not be shown at all.
    ///
    /// - Bytes that are not UTF-8 text (or hold control characters other than tab and line breaks)
    ///   are never shown: `nil`.
    /// - Text that opens like a JSON object or array, or that declares a JSON type, is redacted by
    ///   member name (``redactJSON(_:)``), whatever else it declares (`text/plain`, nothing at all).
    /// - Otherwise text that reads as `name=value&…` pairs (an `=` and no white space), or that
    ///   declares `application/x-www-form-urlencoded`, is redacted pair by pair (``redactPairs(_:)``).
    /// - Text that declares `text/event-stream`, or opens like one (a first line that is a `data`,
    ///   `event`, `id` or `retry` field), is redacted event by event: each event's data — its `data:`
    ///   lines joined, as a reader of the stream gets it — is redacted as a body of its own (JSON by
    ///   member name, pairs pair by pair), and every other line as free text (``redactEvents(_:)``).
    ///   JSON Lines (`application/x-ndjson`, `application/jsonl`…) are JSON text: redacted by member
    ///   name line after line; the record separators of a JSON text sequence (`application/json-seq`)
    ///   are shown as line breaks.
    /// - Any other text is shown only when it declares a `text/` type or no type at all, and then with
    ///   everything after a `name=` whose name is secret hidden, up to the next `&` (`failed with
    ///   password=…` keeps the words before it), and the values of secret JSON members it quotes hidden
    ///   (`error: {"access_token":…}`); text under another type (a bare token sent as
    ///   `application/jwt`, say) is not shown: `nil`.
    ///
    /// A body cut short (the first chunk of a stream, a preview) is redacted as far as it goes: a
    /// secret member's value that the cut leaves open is hidden to its end.
    ///
    /// The result is not truncated; `LoggingStage.preview(_:contentType:)` and
    /// ``SwitchyardError/debugDescription`` cut it after redaction.
    public func redactBody(_ body: Data, contentType: String?) -> String? {
        let type = contentType?.lowercased() ?? ""
        let body = Self.separatingRecords(body, type: type)
        guard let text = Self.text(body) else { return nil }
        if type.hasPrefix("text/event-stream") { return redactEvents(text) }
        let first = body.first { !Self.isWhiteSpace($0) }
        if type.contains("json") || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return redactJSON(body) }
        if Self.looksLikeEvents(text) { return redactEvents(text) }
        let pairs = type.hasPrefix("application/x-www-form-urlencoded") || Self.looksLikePairs(text)
        guard pairs || type.isEmpty || type.hasPrefix("text/") else { return nil }
        return redactText(text)
    }

    /// The body as a string when it is UTF-8 text without control characters other than tab, CR and LF.
    package static func text(_ body: Data) -> String? {
        guard !body.contains(where: { ($0 < 0x20 && !isWhiteSpace($0)) || $0 == 0x7F }) else { return nil }
        return String(data: body, encoding: .utf8)
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Whether text reads as `name=value&…`: an `=`, and no white space but a final line break.
    private static func looksLikePairs(_ text: String) -> Bool {
        let withoutFinalBreak = text.utf8.reversed().drop { $0 == 0x0A || $0 == 0x0D }
        return text.utf8.contains(UInt8(ascii: "=")) && !withoutFinalBreak.contains(where: isWhiteSpace)
    }
}

extension Redaction {
    /// A rule that hides path segments of a request target, one of ``Redaction/pathRules``.
    ///
    /// Segments are judged percent-decoded; a hidden segment is replaced by
    /// ``Redaction/replacement`` as a whole (`/tokens/<redacted>/refresh`).
    public struct PathRule: Sendable {
        private enum Kind: Sendable {
            case after(String)
            case secretShaped(minimumLength: Int)
            case matching(@Sendable (String) -> Bool)
        }

        private let kind: Kind

        /// Hides the segment that follows a segment equal to `segment`, ignoring case:
        /// `.after("tokens")` logs `/tokens/abc123/refresh` as `/tokens/<redacted>/refresh`.
        public static func after(_ segment: String) -> PathRule {
            PathRule(kind: .after(segment.lowercased()))
        }

        /// Hides segments that look like secrets: ``secretShaped(minimumLength:)`` with 24 characters.
        /// One of ``Redaction/default``'s rules.
        public static let secretShaped = secretShaped(minimumLength: 24)

        /// Hides segments that look like secrets rather than resource names: at least `minimumLength`
        /// characters, all of them letters, digits or `.`, `_`, `~`, `+`, `/`, `=`, `-` (the alphabets of
        /// base64, base64url, hex and JWTs), with both letters and digits, and an unbroken run of at
        /// least 16 letters and digits (or `minimumLength`, when that is shorter).
        ///
        /// Numeric ids (no letters), words and slugs (`annual-report-2024-final.pdf`: no long run)
        /// and UUIDs in their usual hyphenated form (runs of at most 12) are kept; a 32-character hex
        /// digest or an undashed UUID is hidden.
        public static func secretShaped(minimumLength: Int) -> PathRule {
            PathRule(kind: .secretShaped(minimumLength: max(1, minimumLength)))
        }

        /// Hides every segment for which `isSecret` returns `true` (it receives the percent-decoded
        /// segment).
        public static func matching(_ isSecret: @escaping @Sendable (String) -> Bool) -> PathRule {
            PathRule(kind: .matching(isSecret))
        }

        /// Whether the rule is a ``matching(_:)`` rule, whose answer only its closure knows.
        var isMatching: Bool {
            if case .matching = kind { return true }
            return false
        }

        /// Whether the rule hides `segment` (percent-decoded), which follows `previous`.
        public func hides(_ segment: String, after previous: String) -> Bool {
            switch kind {
            case .after(let literal):
                return previous.lowercased() == literal
            case .secretShaped(let minimumLength):
                return Self.looksSecret(segment, minimumLength: minimumLength)
            case .matching(let isSecret):
                return isSecret(segment)
            }
        }

        private static func looksSecret(_ segment: String, minimumLength: Int) -> Bool {
            guard segment.utf8.count >= minimumLength else { return false }
            let requiredRun = min(16, minimumLength)
            var hasLetter = false
            var hasDigit = false
            var run = 0
            var longestRun = 0
            for byte in segment.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    hasLetter = true
                    run += 1
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    hasDigit = true
                    run += 1
                case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="),
                    UInt8(ascii: "-"):
                    run = 0
                default:
                    return false
                }
                longestRun = max(longestRun, run)
            }
            return hasLetter && hasDigit && longestRun >= requiredRun
        }
    }
}

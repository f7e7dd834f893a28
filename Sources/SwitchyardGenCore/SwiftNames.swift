import Foundation

/// Turning wire names into Swift names, and checking them.
enum SwiftNames {
    /// Words Swift reserves, which a property needs backticks for.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal", "let",
        "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws",
        "true", "try", "some", "any",
    ]

    /// Members of `Endpoint` a parameter must not shadow.
    static let endpointMembers: Set<String> = [
        "service", "method", "path", "pathParameters", "parameters", "body", "headerFields", "encoding", "options", "name", "decode",
        "payload", "acceptedMediaType", "file", "bodyParameters", "errorBody",
    ]

    /// `name`, or `name2`, `name3`, … — the first not in `used`, which it is then added to.
    static func unique(_ name: String, in used: inout Set<String>) -> String {
        var candidate = name
        var counter = 2
        while used.contains(candidate) {
            candidate = name + String(counter)
            counter += 1
        }
        used.insert(candidate)
        return candidate
    }

    /// `has_more`, `X-Trace-Id`, `page size` → `hasMore`, `xTraceId`, `pageSize`; a leading digit gets `_`.
    static func lowerCamel(_ text: String) -> String {
        let words = text.split { !($0.isLetter || $0.isNumber) }.map(String.init)
        guard let first = words.first else { return "_" }
        var result = first.prefix(1).lowercased() + first.dropFirst()
        if first == first.uppercased(), first.count > 1 { result = first.lowercased() }  // `ID` → `id`
        for word in words.dropFirst() { result += word.prefix(1).uppercased() + word.dropFirst() }
        // Letters and numbers Swift does not take in a name (`½`, `٣` first) are dropped; a name that
        // cannot start as it is gets `_`.
        var name = ""
        name.unicodeScalars.append(contentsOf: result.unicodeScalars.filter(SwiftSource.isIdentifierCharacter))
        guard let initial = name.unicodeScalars.first else { return "_" }
        return SwiftSource.isIdentifierHead(initial) ? name : "_" + name
    }

    /// `my-api`, `catalog` → `MyApi`, `Catalog`; `Generated` when nothing usable is left.
    static func upperCamel(_ text: String) -> String {
        let words = text.split { !($0.isLetter || $0.isNumber) }
        let joined = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = joined.unicodeScalars.first, ("A"..."Z").contains(first), isTypeName(joined) else { return "Generated" }
        return joined
    }

    /// Type names the generated code itself uses, which a model or endpoint must not shadow.
    static let reservedTypeNames: Set<String> = [
        "String", "Int", "Int64", "Double", "Bool", "Data", "Optional", "Array", "Codable", "Sendable", "Hashable", "CodingKey",
        "Endpoint", "Parameters", "ParameterValue", "ParameterEncoding", "ServiceID", "CallOptions", "HTTPFields", "HTTPField",
        "HTTPRequest", "RequestBody", "NoContent", "Service", "ServiceRegistry", "ServiceDefaults", "ServerEnvironment", "Transport",
        "Stage", "StageID", "SwitchyardError", "RetryStage", "RetryPolicy", "EnvelopeStage", "RequestTag", "Duration",
    ]

    /// Further names the code generated from OpenAPI documents uses (standard library, Foundation and
    /// its own helpers), which the importer never gives a model or an endpoint.
    static let generatedCodeNames: Set<String> = [
        "Error", "Decoder", "Encoder", "DecodingError", "Date", "URL", "JSONDecoder", "JSONEncoder", "Response", "Request",
        "Equatable", "Float", "Int32", "UInt8", "Set", "Dictionary", "Character", "Void", "Never", "Result", "Unicode", "Type",
        "MultipartBody", "FilePart", "QueryWriter", "IndirectBox", "ErrorBody", "Output", "Self", "Any", "Protocol", "AnyKey",
        "DiscriminatorKey", "CodingKeys", "Hasher", "Switchyard", "HTTPTypes", "Foundation", "AsyncSequence",
    ]

    /// Names that even backticks cannot make a usable stored property and `init` argument of (`self`
    /// would shadow the instance in the initializer); they get `Value` appended.
    static let unusableNames: Set<String> = ["self", "Self", "Type", "Protocol", "init", "deinit", "subscript", "hashValue"]

    /// A stored-property name for a wire name: lower camel case, `Value` appended where unusable.
    static func member(_ wireName: String) -> String {
        let name = lowerCamel(wireName)
        return unusableNames.contains(name) ? name + "Value" : name
    }

    /// A property name, with backticks where Swift needs them; `_` for a name that is not an identifier
    /// (which the validator has reported already), so that no text but a name is ever emitted.
    static func property(_ name: String) -> String {
        guard SwiftSource.isIdentifier(name) else { return "_" }
        return keywords.contains(name) ? "`\(name)`" : name
    }

    /// Whether `name` is an upper-camel Swift type name (`ListArticles`, `Article2`).
    static func isTypeName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }

    /// The Levenshtein distance, for "did you mean" suggestions.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// `; did you mean 'X'?` for the closest candidate within two edits, or nothing.
    static func suggestion(for name: String, among candidates: [String]) -> String {
        // Names longer than any a person types get no suggestion and suggest none: the distance costs their
        // lengths' product.
        guard name.count <= 64 else { return "" }
        let best = candidates.filter { $0.count <= 64 }.map { ($0, distance(name, $0)) }.min { $0.1 < $1.1 }
        guard let best, best.1 <= 2 else { return "" }
        return "; did you mean '\(best.0)'?"
    }
}

import Yams

/// What kind of text a document is: recognised by its content, not its file name, and JSON made
/// composable without changing a value.
extension OpenAPIDocumentLoader {
    /// Whether `text` is JSON: its first character past spaces and a byte order mark is `{`.
    static func isJSON(_ text: String) -> Bool {
        text.unicodeScalars.first { !$0.properties.isWhitespace && $0 != "\u{FEFF}" } == "{"
    }

    /// Whether `text` is an OpenAPI (or Swagger) document: a top-level `openapi` or `swagger` key — in
    /// YAML a line that starts with it, in JSON a member of the outermost object.
    static func isDocument(text: String) -> Bool {
        let keys = ["openapi", "swagger"]
        if isJSON(text) {
            var depth = 0
            var inString = false
            var escaped = false
            var current = ""
            var lastString = ""
            for scalar in text.unicodeScalars {
                if inString {
                    if escaped {
                        escaped = false
                    } else if scalar == "\\" {
                        escaped = true
                    } else if scalar == "\"" {
                        inString = false
                        lastString = current
                    } else {
                        current.unicodeScalars.append(scalar)
                    }
                    continue
                }
                switch scalar {
                case "\"":
                    inString = true
                    current = ""
                case "{", "[": depth += 1
                case "}", "]": depth -= 1
                case ":" where depth == 1 && keys.contains(lastString): return true
                case ":", ",": lastString = ""
                default: break
                }
            }
            return false
        }
        for line in text.split(whereSeparator: \.isNewline) {
            for key in keys where line.hasPrefix(key + ":") || line.hasPrefix("\"\(key)\":") || line.hasPrefix("'\(key)':") {
                return true
            }
        }
        return false
    }

    /// JSON rewritten so that YAML reads the same values: a surrogate pair escape `\ud83d\udc4d`
    /// becomes YAML's `\U0001F44D`, a lone surrogate `\uFFFD` (as JSON parsers read it), a tab between
    /// tokens a space. Lines never change; columns only after a surrogate pair on the same line.
    static func composable(_ json: String) -> String {
        guard json.contains("\\u") || json.contains("\t") else { return json }
        let scalars = Array(json.unicodeScalars)
        var result = String.UnicodeScalarView()
        result.reserveCapacity(scalars.count)
        var index = 0
        var inString = false
        func hex(at start: Int) -> UInt32? {
            guard start + 6 <= scalars.count, scalars[start] == "\\", scalars[start + 1] == "u" else { return nil }
            return UInt32(String(String.UnicodeScalarView(scalars[(start + 2)..<(start + 6)])), radix: 16)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if !inString {
                if scalar == "\"" { inString = true }
                result.append(scalar == "\t" ? " " : scalar)
                index += 1
                continue
            }
            if scalar == "\"" {
                inString = false
            } else if scalar == "\\", let high = hex(at: index), (0xD800...0xDFFF).contains(high) {
                if high <= 0xDBFF, let low = hex(at: index + 6), (0xDC00...0xDFFF).contains(low) {
                    let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                    let digits = String(value, radix: 16, uppercase: true)
                    result.append(contentsOf: ("\\U" + String(repeating: "0", count: 8 - digits.count) + digits).unicodeScalars)
                    index += 12
                } else {
                    result.append(contentsOf: "\\uFFFD".unicodeScalars)
                    index += 6
                }
                continue
            } else if scalar == "\\", index + 1 < scalars.count {
                result.append(scalar)
                result.append(scalars[index + 1])
                index += 2
                continue
            }
            result.append(scalar)
            index += 1
        }
        return String(result)
    }
}

/// What kind of text a document is: recognised by its content, not its file name.
///
/// One file for the generator and both plugins, which cannot link the generator: each plugin's folder
/// holds a symbolic link to it. It needs nothing but the standard library.
enum OpenAPIRecognition {
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
}

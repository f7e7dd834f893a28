/// Finds where a marker appears as code in Swift source: outside string literals' text and outside
/// comments (an interpolation `\(…)` inside a literal is code). A document's payload that the generator
/// escaped properly shows up only inside literals and comments; one that survives shows up as code.
enum InjectionScanner {
    /// The 1-based lines where `marker` appears as code.
    static func codeLines(containing marker: String, in source: String) -> [Int] {
        let code = codeMask(source)
        let scalars = Array(source.unicodeScalars)
        let needle = Array(marker.unicodeScalars)
        var lines: [Int] = []
        var line = 1
        for index in scalars.indices {
            if scalars[index] == "\n" { line += 1 }
            if code[index], matches(needle, scalars, at: index) { lines.append(line) }
        }
        return lines
    }

    /// Whether `scalars` holds `pattern` from `offset` on.
    static func matches(_ pattern: [Unicode.Scalar], _ scalars: [Unicode.Scalar], at offset: Int) -> Bool {
        guard offset + pattern.count <= scalars.count else { return false }
        for (index, scalar) in pattern.enumerated() where scalars[offset + index] != scalar { return false }
        return true
    }

    /// For each scalar of `source`, whether it is code.
    static func codeMask(_ source: String) -> [Bool] {
        enum Mode {
            case code(parentheses: Int)
            case lineComment
            case blockComment(depth: Int)
            case string(hashes: Int, multiline: Bool)
        }
        let scalars = Array(source.unicodeScalars)
        var mask = [Bool](repeating: false, count: scalars.count)
        // The innermost mode last: a string holds interpolations, which hold strings.
        var modes: [Mode] = [.code(parentheses: 0)]
        func at(_ offset: Int, _ text: String) -> Bool {
            guard offset < scalars.count, scalars[offset] == text.unicodeScalars.first else { return false }
            return matches(Array(text.unicodeScalars), scalars, at: offset)
        }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch modes[modes.count - 1] {
            case .code(let parentheses):
                mask[index] = true
                if at(index, "//") {
                    modes.append(.lineComment)
                    index += 2
                    continue
                }
                if at(index, "/*") {
                    modes.append(.blockComment(depth: 1))
                    index += 2
                    continue
                }
                var hashes = 0
                while index + hashes < scalars.count, scalars[index + hashes] == "#" { hashes += 1 }
                if at(index + hashes, "\"") {
                    let multiline = at(index + hashes, "\"\"\"")
                    modes.append(.string(hashes: hashes, multiline: multiline))
                    index += hashes + (multiline ? 3 : 1)
                    continue
                }
                if scalar == "(" { modes[modes.count - 1] = .code(parentheses: parentheses + 1) }
                if scalar == ")" {
                    if parentheses == 0, modes.count > 1 {
                        modes.removeLast()  // the end of an interpolation
                        mask[index] = false
                    } else {
                        modes[modes.count - 1] = .code(parentheses: max(0, parentheses - 1))
                    }
                }
                index += 1
            case .lineComment:
                if scalar == "\n" || scalar == "\r" { modes.removeLast() }
                index += 1
            case .blockComment(let depth):
                if at(index, "*/") {
                    if depth == 1 { modes.removeLast() } else { modes[modes.count - 1] = .blockComment(depth: depth - 1) }
                    index += 2
                } else if at(index, "/*") {
                    modes[modes.count - 1] = .blockComment(depth: depth + 1)
                    index += 2
                } else {
                    index += 1
                }
            case .string(let hashes, let multiline):
                let escape = "\\" + String(repeating: "#", count: hashes)
                let close = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
                if at(index, escape + "(") {
                    modes.append(.code(parentheses: 0))
                    index += escape.unicodeScalars.count + 1
                } else if at(index, escape) {
                    index += escape.unicodeScalars.count + 1
                } else if at(index, close) {
                    modes.removeLast()
                    index += close.unicodeScalars.count
                } else if !multiline, scalar == "\n" {
                    modes.removeLast()  // an unterminated literal: the compiler rejects it; the rest is code again
                    index += 1
                } else {
                    index += 1
                }
            }
        }
        return mask
    }
}

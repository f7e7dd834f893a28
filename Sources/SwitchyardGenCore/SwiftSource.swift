/// The one way text taken from an API document reaches generated Swift: as an escaped string literal,
/// as a checked identifier, or inside a comment it cannot leave. The emitters interpolate a document's
/// text through these three and nothing else, so the generated file holds no code the document wrote.
enum SwiftSource {
    /// A Swift string literal for `text`: `"` and `\` escaped (so neither `\(` nor a quote can end
    /// the literal or start code), line breaks and control characters as escapes, invisible format
    /// characters (bidirectional overrides, zero-width marks) as `\u{…}` so that a reader sees them;
    /// every other character as it is.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: appendShowingInvisible(scalar, to: &result)
            }
        }
        return result + "\""
    }

    /// Appends `scalar` as itself when it shows (``isVisible(_:)``), as `\u{…}` when it does not.
    static func appendShowingInvisible(_ scalar: Unicode.Scalar, to result: inout String) {
        if isVisible(scalar) { result.unicodeScalars.append(scalar) } else { result += "\\u{\(String(scalar.value, radix: 16))}" }
    }

    /// `text` made fit for one line of a `//` or `///` comment: line breaks, control and invisible
    /// format characters become spaces, so the text can neither end the comment nor hide from a reader.
    /// (`*/` needs nothing: line comments do not nest.)
    static func comment(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.append(contentsOf: text.unicodeScalars.map { isVisible($0) ? $0 : " " })
        return result
    }

    /// Whether a scalar shows as itself: not a control character (C0, DEL, C1), not a line or
    /// paragraph separator, not a format character (`Cf`: bidirectional controls, zero-width marks).
    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: false
        default: true
        }
    }

    /// Whether `name` is a Swift identifier as the language reference defines one (without
    /// backticks), less the invisible format characters the grammar admits (`U+200B`–`U+200D`,
    /// `U+202A`–`U+202E`, `U+2060`–`U+206F`), which would make two names look alike.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isIdentifierHead(first) else { return false }
        return name.unicodeScalars.dropFirst().allSatisfy(isIdentifierCharacter)
    }

    /// The language reference's `identifier-head`, less invisible format characters.
    static func isIdentifierHead(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || scalar == "_" }
        guard isVisible(scalar) else { return false }
        return identifierHeadRanges.contains { $0.contains(value) }
    }

    /// The language reference's `identifier-character`.
    static func isIdentifierCharacter(_ scalar: Unicode.Scalar) -> Bool {
        if ("0"..."9").contains(scalar) { return true }
        let value = scalar.value
        if [0x0300...0x036F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F].contains(where: { $0.contains(value) }) { return true }
        return isIdentifierHead(scalar)
    }

    private static let identifierHeadRanges: [ClosedRange<UInt32>] = [
        0xA8...0xA8, 0xAA...0xAA, 0xAD...0xAD, 0xAF...0xAF, 0xB2...0xB5, 0xB7...0xBA, 0xBC...0xBE, 0xC0...0xD6, 0xD8...0xF6,
        0xF8...0xFF, 0x100...0x2FF, 0x370...0x167F, 0x1681...0x180D, 0x180F...0x1DBF, 0x1E00...0x1FFF, 0x200B...0x200D,
        0x202A...0x202E, 0x203F...0x2040, 0x2054...0x2054, 0x2060...0x206F, 0x2070...0x20CF, 0x2100...0x218F, 0x2460...0x24FF,
        0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF, 0x3004...0x3007, 0x3021...0x302F, 0x3031...0x303F, 0x3040...0xD7FF,
        0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE1F, 0xFE30...0xFE44, 0xFE47...0xFFFD, 0x10000...0x1FFFD, 0x20000...0x2FFFD,
        0x30000...0x3FFFD, 0x40000...0x4FFFD, 0x50000...0x5FFFD, 0x60000...0x6FFFD, 0x70000...0x7FFFD, 0x80000...0x8FFFD,
        0x90000...0x9FFFD, 0xA0000...0xAFFFD, 0xB0000...0xBFFFD, 0xC0000...0xCFFFD, 0xD0000...0xDFFFD, 0xE0000...0xEFFFD,
    ]
}

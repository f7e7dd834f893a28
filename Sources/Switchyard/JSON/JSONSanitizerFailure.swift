/// Why ``JSONSanitizer`` rejected a document, with the zero-based byte offset of the problem.
///
/// The pass throws this small value on its hot path; ``JSONSanitizer/stripNulls(_:)`` turns it into a
/// ``SwitchyardError`` with a sentence such as `unexpected character 'x' at byte 17, expected a value`.
enum JSONSanitizerFailure: Error, Equatable {
    /// What the grammar allowed at the place of the failure.
    enum Expectation: Equatable {
        case value
        case memberName
        case colon
        case commaOrBrace
        case commaOrBracket
        case endOfInput
        case closingQuote
        case digit
        case hexDigit
        case literal(Literal)

        var text: String {
            switch self {
            case .value: "a value"
            case .memberName: "a member name in double quotes"
            case .colon: "':'"
            case .commaOrBrace: "',' or '}'"
            case .commaOrBracket: "',' or ']'"
            case .endOfInput: "the end of the input"
            case .closingQuote: "the closing '\"' of a string"
            case .digit: "a digit"
            case .hexDigit: "a hexadecimal digit"
            case .literal(let literal): "'\(literal.text)'"
            }
        }
    }

    /// One of the three literal names.
    enum Literal: Equatable {
        case `true`, `false`, null

        var text: String {
            switch self {
            case .true: "true"
            case .false: "false"
            case .null: "null"
            }
        }
    }

    /// A byte the grammar does not allow here.
    case unexpected(UInt8, at: Int, expected: Expectation)
    /// The input ended in the middle of a value.
    case unexpectedEnd(at: Int, expected: Expectation)
    /// A backslash followed by something other than `"` `\` `/` `b` `f` `n` `r` `t` `u`.
    case invalidEscape(UInt8, at: Int)
    /// A raw control character (U+0000 to U+001F) inside a string.
    case controlCharacter(UInt8, at: Int)
    /// A byte that is not part of a well-formed UTF-8 sequence.
    case invalidUTF8(UInt8, at: Int)
    /// A number such as `012`.
    case leadingZero(at: Int)
    /// An object or array opened deeper than the limit.
    case tooDeep(limit: Int, at: Int)

    /// A sentence for a person: what was wrong and at which byte.
    var message: String {
        switch self {
        case .unexpected(let byte, let offset, let expected):
            "unexpected \(Self.describe(byte)) at byte \(offset), expected \(expected.text)"
        case .unexpectedEnd(let offset, let expected):
            "unexpected end of input at byte \(offset), expected \(expected.text)"
        case .invalidEscape(let byte, let offset):
            "invalid escape sequence: \(Self.describe(byte)) after a backslash at byte \(offset)"
        case .controlCharacter(let byte, let offset):
            "unescaped control character \(Self.hex(byte)) in a string at byte \(offset)"
        case .invalidUTF8(let byte, let offset):
            "invalid UTF-8 byte \(Self.hex(byte)) at byte \(offset)"
        case .leadingZero(let offset):
            "number with a leading zero at byte \(offset)"
        case .tooDeep(let limit, let offset):
            "nesting deeper than \(limit) levels at byte \(offset)"
        }
    }

    /// `character 'x'` for printable ASCII, `byte 0x0A` otherwise.
    private static func describe(_ byte: UInt8) -> String {
        if byte > 0x20, byte < 0x7F {
            return "character '\(Character(Unicode.Scalar(byte)))'"
        }
        return byte == 0x20 ? "character ' '" : "byte \(hex(byte))"
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0x0" + digits : "0x" + digits
    }
}

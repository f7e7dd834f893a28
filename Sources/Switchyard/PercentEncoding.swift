/// RFC 3986 percent-encoding, done on UTF-8 bytes.
enum PercentEncoding {
    /// Characters kept as they are in a query name or value, and in a path parameter: the RFC 3986
    /// unreserved set. Everything else (including `/`, `?`, `&`, `=`, `+`, `%`, space) is encoded.
    static func encodeComponent(_ text: String) -> String {
        encode(text) { $0.isUnreserved }
    }

    /// Characters kept in literal path text: unreserved, sub-delims, `:`, `@` and `/`.
    /// `%` is kept only when it starts a valid `%XX` escape.
    static func encodePathLiteral(_ text: String) -> String {
        encode(text, keepingValidEscapes: true) { $0.isUnreserved || $0.isSubDelimiter || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "/") }
    }

    /// Characters kept in a literal query: as for paths plus `?`, minus nothing that separates pairs.
    static func encodeQueryLiteral(_ text: String) -> String {
        encode(text, keepingValidEscapes: true) { $0.isUnreserved || $0.isSubDelimiter || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
    }

    private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func encode(_ text: String, keepingValidEscapes: Bool = false, allowed: (UInt8) -> Bool) -> String {
        let bytes = Array(text.utf8)
        if bytes.allSatisfy(allowed), !bytes.contains(UInt8(ascii: "%")) { return text }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 3)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), keepingValidEscapes, index + 2 < bytes.count,
               bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit {
                output.append(byte)
            } else if allowed(byte) && byte != UInt8(ascii: "%") {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension UInt8 {
    var isUnreserved: Bool {
        isASCIILetter || isASCIIDigit || self == UInt8(ascii: "-") || self == UInt8(ascii: ".") || self == UInt8(ascii: "_") || self == UInt8(ascii: "~")
    }
    var isSubDelimiter: Bool {
        switch self {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default: false
        }
    }
    var isHexDigit: Bool { isASCIIDigit || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }
}

import Foundation

/// Byte-level helpers for walking well-formed (or at least not hostile) JSON text without building a
/// tree; shared by ``JSONMembers`` and ``Redaction``.
package enum JSONScan {
    /// The index of the first byte at or after `start` that is not JSON whitespace.
    package static func skipSpace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
        return index
    }

    /// The index just past the string starting at `start` (which holds `"`).
    package static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if bytes[index] == UInt8(ascii: "\"") { return index + 1 }
            index += 1
        }
        return bytes.count
    }

    /// The index just past the value starting at `start`.
    package static func endOfValue(_ bytes: [UInt8], from start: Int) -> Int {
        guard start < bytes.count else { return start }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return endOfString(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = endOfString(bytes, from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return bytes.count
        default:
            var index = start
            while index < bytes.count,
                ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[index])
            { index += 1 }
            return index
        }
    }

    /// The decoded text of the string literal at `range` (quotes included); escapes are decoded only
    /// when present.
    package static func stringValue(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        let inner = bytes[(range.lowerBound + 1)..<max(range.lowerBound + 1, range.upperBound - 1)]
        if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
        return (try? JSONDecoder().decode(String.self, from: Data(bytes[range]))) ?? String(decoding: inner, as: UTF8.self)
    }

    /// What ``rewritingMembers(_:_:)`` does with one object member.
    package enum MemberRewrite {
        /// Copy it as it is.
        case keep
        /// Write it under another name.
        case rename(String)
        /// Keep the name, replace the whole value with these bytes.
        case replaceValue([UInt8])
    }

    /// `bytes` copied with every object member, at any depth, passed through `rewrite` by its decoded
    /// name; everything else (values, strings that are not names) is copied byte for byte.
    package static func rewritingMembers(_ bytes: [UInt8], _ rewrite: (String) -> MemberRewrite) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                output.append(bytes[index])
                index += 1
                continue
            }
            let end = endOfString(bytes, from: index)
            let colon = skipSpace(bytes, from: end)
            let action: MemberRewrite =
                colon < bytes.count && bytes[colon] == UInt8(ascii: ":") ? rewrite(stringValue(bytes, index..<end)) : .keep
            switch action {
            case .keep:
                output.append(contentsOf: bytes[index..<end])
                index = end
            case .rename(let name):
                appendString(name, to: &output)
                index = end
            case .replaceValue(let value):
                output.append(contentsOf: bytes[index..<end])
                output.append(UInt8(ascii: ":"))
                output.append(contentsOf: value)
                index = endOfValue(bytes, from: skipSpace(bytes, from: colon + 1))
            }
        }
        return output
    }

    /// Appends `text` as a JSON string literal, escaping quotes, backslashes and control characters.
    ///
    /// Text that needs no escape (nearly all of it) is copied in one piece; escapes are written byte by
    /// byte, without a table or a literal array made for them.
    package static func appendString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Scanned and copied over the string's own bytes (a UTF-8 view's iterator walks it index by index).
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            let escaped: UInt8
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): escaped = byte
            case UInt8(ascii: "\n"): escaped = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): escaped = UInt8(ascii: "r")
            case UInt8(ascii: "\t"): escaped = UInt8(ascii: "t")
            case 0..<0x20:
                output.append(contentsOf: "\\u00".utf8)
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0xF))
                continue
            default:
                output.append(byte)
                continue
            }
            output.append(UInt8(ascii: "\\"))
            output.append(escaped)
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The lower-case hexadecimal digit of `nibble` (0–15).
    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

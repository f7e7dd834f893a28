/// RFC 3986 percent-encoding, done on UTF-8 bytes.
package enum PercentEncoding {
    /// Which bytes stay as they are.
    package enum Allowed {
        /// A query name or value, or a path parameter: the RFC 3986 unreserved set only. Everything
        /// else (including `/`, `?`, `&`, `=`, `+`, `%`, space) is encoded.
        case component
        /// Literal path text: unreserved, sub-delims, `:`, `@` and `/`; `%` only when it starts a
        /// valid `%XX` escape.
        case pathLiteral
        /// Literal query text: as for paths plus `?`.
        case queryLiteral

        /// Whether `byte` stays as it is: one bit test in the set's two 64-bit masks (ASCII only).
        @inlinable @inline(__always)
        package func allows(_ byte: UInt8) -> Bool {
            let (low, high) = masks
            let mask = byte < 64 ? low : byte < 128 ? high : 0
            return mask &>> UInt64(byte & 63) & 1 != 0
        }

        /// The allowed bytes 0–63 and 64–127 as bit sets: the unreserved set (`A`–`Z`, `a`–`z`,
        /// `0`–`9`, `-._~`), for literals with the sub-delimiters (`!$&'()*+,;=`), `:`, `@` and `/`,
        /// and for query literals `?` too.
        @inlinable
        var masks: (low: UInt64, high: UInt64) {
            switch self {
            case .component: (0x03FF_6000_0000_0000, 0x47FF_FFFE_87FF_FFFE)
            case .pathLiteral: (0x2FFF_FFD2_0000_0000, 0x47FF_FFFE_87FF_FFFF)
            case .queryLiteral: (0xAFFF_FFD2_0000_0000, 0x47FF_FFFE_87FF_FFFF)
            }
        }

        @inlinable
        package var keepsValidEscapes: Bool { self != .component }
    }

    /// Encodes a query name or value, or a path parameter.
    package static func encodeComponent(_ text: String) -> String { encode(text, .component) }

    /// Decodes `%XX` escapes (and, for form data, `+` as a space); a malformed escape is kept as is.
    package static func decode(_ text: Substring, plusIsSpace: Bool = true) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(text) }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
                continue
            }
            output.append(byte == UInt8(ascii: "+") && plusIsSpace ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Encodes `text`, returning it unchanged (without copying) when nothing needs encoding.
    package static func encode(_ text: String, _ allowed: Allowed) -> String {
        if text.utf8.allSatisfy({ allowed.allows($0) }) { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3)
        append(text.utf8, allowed, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the encoded form of `bytes` to `output`.
    @inlinable
    package static func append<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ allowed: Allowed, to output: inout [UInt8]) {
        encode(bytes, allowed) { output.append($0) }
    }

    /// Writes the encoded form of `bytes` at `output + count` (only counts when `output` is `nil`),
    /// advancing `count`: the request target's two passes. Not generic, so that it is specialized
    /// here: a package-level generic is never specialized in another module.
    package static func write(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ allowed: Allowed,
        to output: UnsafeMutablePointer<UInt8>?,
        count: inout Int
    ) {
        if let output {
            var index = count
            encode(bytes, allowed) { byte in
                output[index] = byte
                index += 1
            }
            count = index
        } else {
            var added = 0
            encode(bytes, allowed) { _ in added += 1 }
            count += added
        }
    }

    /// The encoded form of `bytes`, byte by byte, to `emit`: an allowed byte as it is, a valid escape
    /// as it is where `allowed` keeps escapes, anything else as `%XX` (upper-case hexadecimal).
    @inlinable @inline(__always)
    package static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ allowed: Allowed, emit: (UInt8) -> Void) {
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if allowed.allows(byte) {
                emit(byte)
            } else if byte == UInt8(ascii: "%"), allowed.keepsValidEscapes, isEscape(bytes, after: index) {
                emit(byte)
            } else {
                emit(UInt8(ascii: "%"))
                emit(hex(byte >> 4))
                emit(hex(byte & 0x0F))
            }
            index = bytes.index(after: index)
        }
    }

    /// Whether the two bytes after `percent` are hexadecimal digits.
    @inlinable
    static func isEscape<Bytes: Collection<UInt8>>(_ bytes: Bytes, after percent: Bytes.Index) -> Bool {
        let first = bytes.index(after: percent)
        guard first != bytes.endIndex, bytes[first].isHexDigit else { return false }
        let second = bytes.index(after: first)
        return second != bytes.endIndex && bytes[second].isHexDigit
    }

    /// The upper-case hexadecimal digit of `nibble` (0–15).
    @inlinable @inline(__always)
    static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}

extension UInt8 {
    @inlinable
    var isHexDigit: Bool { (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }
}

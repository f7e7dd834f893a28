extension JSONSanitizerPass {
    /// Checks the string starting at `start` (which holds `"`), copies it to the output at offset
    /// `target`, escapes and all, exactly as written, and returns the input offset just past its
    /// closing quote.
    ///
    /// Eight bytes at a time are copied and tested for the four kinds of byte that need a closer
    /// look — `"`, `\`, control characters and non-ASCII bytes. This fast path is small enough to
    /// inline and ends most strings; at an escape, non-ASCII text or the last bytes of the input the
    /// rest is checked by ``endOfString(resumingAt:)`` and the string copied again. Like
    /// ``copy(from:to:at:)``, the last word may write a few bytes past the string.
    @inline(__always)
    func copyString(from start: Int, at target: Int) throws(JSONSanitizerFailure) -> Int {
        var index = start
        // The opening quote is copied with the first word; its own flag is cleared.
        var ignored: UInt64 = 0x80
        while index &+ 8 <= count {
            let word = UnsafeRawPointer(input + index).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(output + (target &+ (index &- start))).storeBytes(of: word, as: UInt64.self)
            let flags = Self.attention(UInt64(littleEndian: word)) & ~ignored
            ignored = 0
            if flags == 0 {
                index &+= 8
                continue
            }
            index &+= flags.trailingZeroBitCount &>> 3
            if input[index] == UInt8(ascii: "\"") { return index &+ 1 }
            break
        }
        let end = try endOfString(resumingAt: max(index, start &+ 1))
        copy(from: start, to: end, at: target)
        return end
    }

    /// The rest of ``copyString(from:at:)`` from `start`, inside a string: one byte or sequence at a
    /// time where needed, eight bytes at a time where possible.
    @inline(never)
    func endOfString(resumingAt start: Int) throws(JSONSanitizerFailure) -> Int {
        var index = start
        while true {
            guard index < count else { throw .unexpectedEnd(at: count, expected: .closingQuote) }
            let byte = input[index]
            if byte == UInt8(ascii: "\"") {
                return index &+ 1
            } else if byte == UInt8(ascii: "\\") {
                index = try endOfEscape(at: index)
            } else if byte >= 0x80 {
                index = try endOfUTF8Sequence(at: index)
            } else if byte < 0x20 {
                throw .controlCharacter(byte, at: index)
            } else {
                index &+= 1
            }
            while index &+ 8 <= count {
                let flags = Self.attention(UInt64(littleEndian: UnsafeRawPointer(input + index).loadUnaligned(as: UInt64.self)))
                if flags == 0 {
                    index &+= 8
                } else {
                    index &+= flags.trailingZeroBitCount &>> 3
                    break
                }
            }
        }
    }

    /// The high bit of every byte of `word` that is `"`, `\`, below 0x20 or above 0x7F; the lowest
    /// flagged byte is always exact (the borrows of the subtractions only run upwards).
    @inline(__always)
    static func attention(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let quoteZero = (quotes &- ones) & ~quotes
        let backslashZero = (backslashes &- ones) & ~backslashes
        let control = (word &- ones &* 0x20) & ~word
        return (quoteZero | backslashZero | control | word) & (ones &* 0x80)
    }

    /// Checks the escape sequence at `index` (which holds `\`) and returns the offset past it.
    @inline(__always)
    func endOfEscape(at index: Int) throws(JSONSanitizerFailure) -> Int {
        let next = index &+ 1
        guard next < count else { throw .unexpectedEnd(at: next, expected: .closingQuote) }
        switch input[next] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return next &+ 1
        case UInt8(ascii: "u"):
            var digit = next &+ 1
            let end = next &+ 5
            while digit < end {
                guard digit < count else { throw .unexpectedEnd(at: digit, expected: .hexDigit) }
                switch input[digit] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
                    digit &+= 1
                default:
                    throw .unexpected(input[digit], at: digit, expected: .hexDigit)
                }
            }
            return end
        default:
            throw .invalidEscape(input[next], at: next)
        }
    }

    /// Checks the UTF-8 sequence at `index` (whose lead byte is above 0x7F) per RFC 3629 — no
    /// overlong forms, no surrogates, nothing above U+10FFFF — and returns the offset past it.
    @inline(__always)
    func endOfUTF8Sequence(at index: Int) throws(JSONSanitizerFailure) -> Int {
        let lead = input[index]
        let second: ClosedRange<UInt8>
        let length: Int
        switch lead {
        case 0xC2...0xDF:
            second = 0x80...0xBF
            length = 2
        case 0xE0:
            second = 0xA0...0xBF
            length = 3
        case 0xE1...0xEC, 0xEE...0xEF:
            second = 0x80...0xBF
            length = 3
        case 0xED:
            second = 0x80...0x9F
            length = 3
        case 0xF0:
            second = 0x90...0xBF
            length = 4
        case 0xF1...0xF3:
            second = 0x80...0xBF
            length = 4
        case 0xF4:
            second = 0x80...0x8F
            length = 4
        default: throw .invalidUTF8(lead, at: index)
        }
        let end = index &+ length
        var offset = index &+ 1
        while offset < end {
            guard offset < count else { throw .unexpectedEnd(at: offset, expected: .closingQuote) }
            let byte = input[offset]
            let allowed = offset == index &+ 1 ? second : 0x80...0xBF
            guard allowed.contains(byte) else { throw .invalidUTF8(byte, at: offset) }
            offset &+= 1
        }
        return end
    }

    /// Checks the number starting at `start` (`-` or a digit) and returns the offset just past it:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    @inline(__always)
    func endOfNumber(from start: Int) throws(JSONSanitizerFailure) -> Int {
        var index = start
        if input[index] == UInt8(ascii: "-") { index &+= 1 }
        guard index < count else { throw .unexpectedEnd(at: index, expected: .digit) }
        if input[index] == UInt8(ascii: "0") {
            index &+= 1
            if index < count, Self.isDigit(input[index]) { throw .leadingZero(at: index &- 1) }
        } else {
            index = try endOfDigits(from: index)
        }
        if index < count, input[index] == UInt8(ascii: ".") {
            index = try endOfDigits(from: index &+ 1)
        }
        if index < count, input[index] | 0x20 == UInt8(ascii: "e") {
            index &+= 1
            if index < count, input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-") { index &+= 1 }
            index = try endOfDigits(from: index)
        }
        return index
    }

    /// The offset past a run of at least one digit starting at `index`.
    @inline(__always)
    func endOfDigits(from index: Int) throws(JSONSanitizerFailure) -> Int {
        guard index < count else { throw .unexpectedEnd(at: index, expected: .digit) }
        guard Self.isDigit(input[index]) else { throw .unexpected(input[index], at: index, expected: .digit) }
        var end = index &+ 1
        while end < count, Self.isDigit(input[end]) { end &+= 1 }
        return end
    }

    /// Whether `byte` is an ASCII digit.
    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Checks that the four bytes at `start` are `word`.
    @inline(__always)
    func expectWord(_ word: UInt32, at start: Int, literal: JSONSanitizerFailure.Literal) throws(JSONSanitizerFailure) {
        if start &+ 4 <= count, UInt32(littleEndian: UnsafeRawPointer(input + start).loadUnaligned(as: UInt32.self)) == word {
            return
        }
        for shift in 0..<4 {
            let offset = start &+ shift
            let expected = UInt8(truncatingIfNeeded: word &>> UInt32(shift &* 8))
            guard offset < count else { throw .unexpectedEnd(at: offset, expected: .literal(literal)) }
            guard input[offset] == expected else { throw .unexpected(input[offset], at: offset, expected: .literal(literal)) }
        }
    }

    /// Copies input bytes `start..<end` to the output at offset `target`, eight bytes at a time.
    ///
    /// Tokens are short, so whole words beat a call to `memcpy`. The last word may carry up to seven
    /// bytes past the token into the output; they lie beyond what the pass counts as written and are
    /// overwritten or ignored. The stores stay inside the buffer because the output offset never exceeds the input
    /// offset and a word is only loaded where eight input bytes remain.
    @inline(__always)
    func copy(from start: Int, to end: Int, at target: Int) {
        var source = start
        var target = target
        while source < end, source &+ 8 <= count {
            let word = UnsafeRawPointer(input + source).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(output + target).storeBytes(of: word, as: UInt64.self)
            source &+= 8
            target &+= 8
        }
        while source < end {
            output[target] = input[source]
            source &+= 1
            target &+= 1
        }
    }
}

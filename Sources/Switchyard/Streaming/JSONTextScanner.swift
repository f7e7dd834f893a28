/// Follows a JSON text byte by byte, just enough to tell when it is complete: nesting depth, and
/// whether the bytes are inside a string. It does not validate; the decoder does.
struct JSONTextScanner {
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var started = false

    /// Takes the next byte of the text.
    mutating func consume(_ byte: UInt8) {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return
        }
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D:
            return
        case UInt8(ascii: "\""):
            inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
        default:
            break
        }
        started = true
    }

    /// Whether the bytes so far hold a value (not only whitespace) with every string, object and
    /// array closed — or more closed than opened, which the decoder then refuses.
    var isComplete: Bool { started && !inString && depth <= 0 }
}

import NIOCore

/// A JSON document with ordered object keys, serialised by hand so responses are byte-for-byte
/// predictable (key order, no escaped slashes, raw UTF-8 for non-ASCII text).
enum JSONValue: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByNilLiteral
{
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// JSON text copied verbatim (already validated by whoever made it).
    case raw([UInt8])

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(nilLiteral: ()) { self = .null }

    /// A string, or `null` when `value` is `nil`.
    static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    /// The serialised document as a fresh buffer.
    var buffer: ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(256)
        self.write(into: &buffer)
        return buffer
    }

    /// Appends the serialised document to `buffer`.
    func write(into buffer: inout ByteBuffer) {
        switch self {
        case .null:
            buffer.writeStaticString("null")
        case .bool(let value):
            buffer.writeStaticString(value ? "true" : "false")
        case .int(let value):
            buffer.writeString(String(value))
        case .string(let value):
            Self.writeQuoted(value, into: &buffer)
        case .array(let elements):
            buffer.writeInteger(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                element.write(into: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "]"))
        case .object(let members):
            buffer.writeInteger(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                Self.writeQuoted(member.0, into: &buffer)
                buffer.writeInteger(UInt8(ascii: ":"))
                member.1.write(into: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "}"))
        case .raw(let bytes):
            buffer.writeBytes(bytes)
        }
    }

    /// Writes `string` as a JSON string literal, escaping quotes, backslashes and control characters.
    ///
    /// Measures the escaped length first: text that needs no escaping is copied verbatim, anything else
    /// is written straight into the buffer's storage in one pass, so even multi-megabyte strings
    /// (e.g. a large `/echo` body) serialise quickly.
    private static func writeQuoted(_ string: String, into buffer: inout ByteBuffer) {
        var string = string
        string.withUTF8 { bytes in
            var escapedCount = 2
            for byte in bytes {
                escapedCount += Self.escapedLength(of: byte)
            }
            if escapedCount == bytes.count + 2 {
                // Nothing to escape: copy the text verbatim.
                buffer.writeInteger(UInt8(ascii: "\""))
                buffer.writeBytes(UnsafeRawBufferPointer(bytes))
                buffer.writeInteger(UInt8(ascii: "\""))
                return
            }
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: escapedCount) { output in
                var position = 0
                func put(_ byte: UInt8) {
                    output[position] = byte
                    position += 1
                }
                put(UInt8(ascii: "\""))
                for byte in bytes {
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                        put(UInt8(ascii: "\\"))
                        put(byte)
                    case UInt8(ascii: "\n"):
                        put(UInt8(ascii: "\\"))
                        put(UInt8(ascii: "n"))
                    case UInt8(ascii: "\r"):
                        put(UInt8(ascii: "\\"))
                        put(UInt8(ascii: "r"))
                    case UInt8(ascii: "\t"):
                        put(UInt8(ascii: "\\"))
                        put(UInt8(ascii: "t"))
                    case 0..<0x20:
                        put(UInt8(ascii: "\\"))
                        put(UInt8(ascii: "u"))
                        put(UInt8(ascii: "0"))
                        put(UInt8(ascii: "0"))
                        put(Self.hexDigit(byte >> 4))
                        put(Self.hexDigit(byte & 0x0F))
                    default:
                        put(byte)
                    }
                }
                put(UInt8(ascii: "\""))
                return position
            }
        }
    }

    /// How many bytes `byte` occupies once escaped inside a JSON string literal.
    private static func escapedLength(of byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): 2
        case 0..<0x20: 6
        default: 1
        }
    }

    /// The lower-case hexadecimal digit for a value in `0...15`.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

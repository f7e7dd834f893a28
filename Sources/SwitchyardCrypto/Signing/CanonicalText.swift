import Foundation
import Switchyard

/// Writes a canonical string of the signing wire format — lines joined with `\n`, the last one the
/// lower-case hex SHA-256 of a body — into one string allocated once at its exact length: no joined
/// copies growing as they go, no digest `Data` or hex string of its own (the lines themselves come
/// as one small array).
struct CanonicalText {
    /// The lines before the body's digest.
    private let lines: [Substring]

    /// Starts with `lines`, in order.
    init(_ lines: [Substring]) {
        self.lines = lines
    }

    /// The lines, then the hex SHA-256 of `body`, joined with `\n`.
    func finished(digesting body: Data) -> String {
        let digestLength = 32
        let length = UTF8Join.count(lines) + 1 + 2 * digestLength
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: digestLength) { digest in
            Digest.sha256(body, into: UnsafeMutableRawBufferPointer(digest))
            return String(unsafeUninitializedCapacity: length) { output in
                var position = UTF8Join.write(lines, separator: UInt8(ascii: "\n"), into: output)
                output[position] = UInt8(ascii: "\n")
                position += 1
                let digits: StaticString = "0123456789abcdef"
                digits.withUTF8Buffer { digits in
                    for byte in digest {
                        output[position] = digits[Int(byte >> 4)]
                        output[position + 1] = digits[Int(byte & 0x0F)]
                        position += 2
                    }
                }
                return position
            }
        }
    }
}

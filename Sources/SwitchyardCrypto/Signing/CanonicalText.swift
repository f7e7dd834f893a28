import Foundation
import Switchyard

/// Writes a canonical string of the signing wire format — lines joined with `\n`, the last one the
/// lower-case hex SHA-256 of a body — into one string allocated once at its exact length: no joined
/// copies growing as they go, no digest `Data` or hex string of its own.
enum CanonicalText {
    /// `lines`, then the hex SHA-256 of `body`, joined with `\n`.
    static func joining(_ lines: [Substring], digesting body: Data) -> String {
        let digestLength = 32
        let length = UTF8Join.count(lines) + 1 + 2 * digestLength
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: digestLength) { digest in
            let digest = UnsafeMutableRawBufferPointer(digest)
            Digest.sha256(body, into: digest)
            return String(unsafeUninitializedCapacity: length) { output in
                var position = UTF8Join.write(lines, separator: UInt8(ascii: "\n"), into: output)
                output[position] = UInt8(ascii: "\n")
                position += 1
                return position
                    + Digest.writeHex(UnsafeRawBufferPointer(digest), into: UnsafeMutableBufferPointer(rebasing: output[position...]))
            }
        }
    }
}

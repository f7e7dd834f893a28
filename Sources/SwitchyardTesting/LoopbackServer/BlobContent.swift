import Foundation

/// The content of the loopback server's large files (`GET /files/blob/{bytes}`): deterministic bytes
/// that anyone can regenerate to check a download, cheap enough to serve hundreds of megabytes.
///
/// The bytes repeat with a period of 65,521 (a prime, so a download that loses or repeats any
/// power-of-two-sized chunk is caught) from a table seeded by the version; a new `version` is "the
/// file changed on the server", with a new `ETag`.
enum BlobContent {
    /// The period of the content, in bytes.
    static let period = 65_521

    /// The table for a version, computed once per version.
    private static let tables: [[UInt8]] = (0..<4).map(table)

    private static func table(_ version: Int) -> [UInt8] {
        var state = UInt64(0x9E37_79B9_7F4A_7C15) &+ UInt64(version) &* 0xD1B5_4A32_D192_ED03
        return (0..<period).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    /// The versions served (`?version=` 1...3).
    static let versions = 1...3

    /// The bytes at `range` of the blob of `version`.
    static func bytes(_ range: Range<Int64>, version: Int = 1) -> Data {
        var data = Data(count: range.count)
        data.withUnsafeMutableBytes { fill($0, from: range.lowerBound, version: version) }
        return data
    }

    /// Fills `buffer` with the bytes starting at absolute offset `offset`.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer, from offset: Int64, version: Int = 1) {
        tables[version].withUnsafeBytes { table in
            var written = 0
            var position = Int(offset % Int64(period))
            while written < buffer.count {
                let run = min(period - position, buffer.count - written)
                (buffer.baseAddress! + written).copyMemory(from: table.baseAddress! + position, byteCount: run)
                written += run
                position = 0
            }
        }
    }

    /// The strong `ETag` of the blob of `size` bytes and `version`.
    static func etag(size: Int64, version: Int = 1) -> String {
        "\"blob-\(size)-v\(version)\""
    }
}

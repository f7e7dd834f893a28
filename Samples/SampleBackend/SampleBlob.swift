public import Foundation

/// The content of the sample backend's large files (`GET /files/blob/{bytes}`): deterministic bytes
/// that anyone can regenerate to check a download, cheap enough to serve hundreds of megabytes.
///
/// The bytes repeat with a period of 65,521 (a prime, so a download that loses or repeats any
/// power-of-two-sized chunk is caught) from a table seeded by the version; a new `version` is "the
/// file changed on the server", with a new `ETag`. The loopback server the sample backend is built
/// on serves them.
public enum SampleBlob {
    /// The bytes at `range` of the blob of `version`.
    public static func bytes(_ range: Range<Int64>, version: Int = 1) -> Data {
        BlobContent.bytes(range, version: version)
    }

    /// The strong `ETag` of the blob of `size` bytes and `version`.
    public static func etag(size: Int64, version: Int = 1) -> String {
        BlobContent.etag(size: size, version: version)
    }
}

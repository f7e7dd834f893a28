public import Foundation

/// A response body written to a file by a download.
///
/// On a ``Response`` (``Response/Body/file(_:)``) it names the `.partial` file the transport wrote; the
/// result of a download (`endpoint.downloading(to:)`) names the destination, which exists only
/// once the download is complete and, when asked, its checksum matches.
public struct DownloadedFile: Sendable, Hashable {
    /// Where the bytes are.
    public var url: URL
    /// The file's length in bytes.
    public var byteCount: Int64
    /// How many of those bytes were already on disk from an earlier call's interrupted download and
    /// were kept (0 when the download started from the first byte, or the server sent the whole
    /// resource again because it had changed).
    public var resumedFrom: Int64
    /// How many times the transfer was resumed within the call after the connection broke off.
    public var resumes: Int
    /// The verified checksum in lower-case hex, when one was asked for.
    public var checksum: String?

    /// Creates a description of a downloaded file.
    public init(url: URL, byteCount: Int64, resumedFrom: Int64 = 0, resumes: Int = 0, checksum: String? = nil) {
        self.url = url
        self.byteCount = byteCount
        self.resumedFrom = resumedFrom
        self.resumes = resumes
        self.checksum = checksum
    }
}

/// How far a call's upload and download have got — one event of a ``CallHandle``'s
/// ``CallHandle/progress`` stream.
///
/// Each event carries both directions as they stand, so an event that a slow reader skips loses
/// nothing: the next one has everything. A direction the transport has not reported yet is `nil`
/// (a call without a body never reports an upload).
///
/// ```swift
/// for await progress in handle.progress {
///     if let upload = progress.upload { print("sent", upload) }          // "sent 65536/262144 bytes (25%)"
///     if let download = progress.download { print("received", download) }
/// }
/// ```
public struct CallProgress: Sendable, Hashable, CustomStringConvertible {
    /// The request body sent so far, with its size when known; `nil` before the first report.
    public var upload: TransferProgress?
    /// The response body received so far, with the total when the server gave one; `nil` before
    /// the first report.
    public var download: TransferProgress?

    /// Creates a progress value.
    public init(upload: TransferProgress? = nil, download: TransferProgress? = nil) {
        self.upload = upload
        self.download = download
    }

    /// `up 1024/4096 bytes (25%), down 0 bytes`, leaving out a direction not reported yet.
    public var description: String {
        let parts = [upload.map { "up \($0)" }, download.map { "down \($0)" }].compactMap { $0 }
        return parts.isEmpty ? "nothing transferred yet" : parts.joined(separator: ", ")
    }
}

public import Foundation

/// Where a transport writes a response body instead of holding it in memory: set by
/// a download's call (`Endpoint.downloading(to:options:)` in Switchyard) on its context.
///
/// Transports that support downloads to a file check ``CallContext/downloadTarget``; when it is set
/// and the response is a `200` or `206`, they feed the body to a ``DownloadSink`` chunk by chunk,
/// so a download of any size costs a constant amount of memory. Other statuses (an error page, a
/// `416`) are collected in memory as usual, so stages and error handling see them.
public struct DownloadTarget: Sendable, Hashable {
    /// The file the bytes are written to (the `.partial` file, renamed only once complete and verified).
    public var fileURL: URL
    /// The number of bytes already in the file that the request asked the server to skip with a
    /// `Range` header; `0` for a fresh download.
    public var resumeOffset: Int64
    /// Where the response's validator (`ETag` or `Last-Modified`) and length are recorded, so that an
    /// interrupted download can be resumed later; `nil` to record nothing.
    public var recordURL: URL?
    /// A description of what is downloaded (service, method, path), recorded beside the validator so a
    /// partial file is only ever resumed by a download of the same resource.
    public var resource: String

    /// Creates a target.
    public init(fileURL: URL, resumeOffset: Int64 = 0, recordURL: URL? = nil, resource: String = "") {
        self.fileURL = fileURL
        self.resumeOffset = resumeOffset
        self.recordURL = recordURL
        self.resource = resource
    }

    /// The context key it is stored under.
    package enum Key: CallContextKey {
        package typealias Value = DownloadTarget
    }
}

extension CallContext {
    /// Where the transport writes the response body, for a download to a file; `nil` for an ordinary
    /// call whose body is collected in memory.
    public var downloadTarget: DownloadTarget? {
        get { self[DownloadTarget.Key.self] }
        set { self[DownloadTarget.Key.self] = newValue }
    }
}

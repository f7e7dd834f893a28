package import Foundation
package import HTTPTypes
import SwitchyardSupport

/// What is remembered beside a `.partial` file so that a later download can ask for the rest with
/// `Range` and `If-Range`: the resource, the validator and the total length.
package struct DownloadResumeRecord: Codable, Equatable {
    /// The resource the bytes belong to (``DownloadTarget/resource``).
    package var resource: String
    /// A strong `ETag` or a `Last-Modified` date, sent back as `If-Range`.
    package var validator: String
    /// The whole resource's length, when known.
    package var total: Int64?
    /// Where the response that wrote this record started: 0 when the server sent the whole resource
    /// (whatever was on disk before was replaced), the resume offset for a `206`.
    package var start: Int64

    /// A record for a response, or `nil` when it carries no validator usable in `If-Range` (a weak
    /// `ETag` and no `Last-Modified`): such a download cannot be resumed safely and starts over.
    package init?(head: HTTPResponse, total: Int64?, start: Int64, resource: String) {
        let etag = head.headerFields[.eTag]?.trimmingCharacters(in: .whitespaces)
        if let etag, !etag.isEmpty, !etag.hasPrefix("W/") {
            validator = etag
        } else if let modified = head.headerFields[.lastModified], !modified.isEmpty {
            validator = modified
        } else {
            return nil
        }
        self.total = total
        self.start = start
        self.resource = resource
    }

    /// Reads a record; `nil` when there is none or it cannot be read.
    package static func load(from url: URL) -> DownloadResumeRecord? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(DownloadResumeRecord.self, from: data)
    }

    /// Writes the record atomically and private to the user (best effort: without it the download
    /// simply starts over).
    package func save(to url: URL) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? PrivateFiles.replace(url, with: data)
    }
}

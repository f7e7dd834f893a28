import NIOCore
import NIOHTTP1

/// `GET|HEAD /files/blob/{bytes}?version=&dropAt=&pace=`: large files with range support.
///
/// The content is ``BlobContent`` of the version asked for (the query's `version`, or the header
/// `X-Blob-Version`, 1...3), with `ETag`, `Last-Modified` and `Accept-Ranges: bytes`; it honours
/// `Range: bytes=N-` / `bytes=N-M` (206, or 416 past the end) and `If-Range` (a stale validator gets
/// the whole file with 200). `dropAt=N` closes the connection once the bytes before offset `N` are
/// sent, when the transfer starts at the first byte — a download broken off mid-way, whose resumption
/// (a range) then completes. `pace=MS` (or the header `X-Blob-Pace`, which a download's resume record
/// does not see) waits `MS` milliseconds after each 256 KiB chunk: a slow transfer, for deadlines.
/// `watch=TAG` records how far the transfer got and whether its connection closed before the end,
/// read back from `GET /watch/TAG` (`{"state":"open|finished|closed","sent":N}`).
enum BlobRoute {
    /// The largest blob served.
    static let maximumBlobSize: Int64 = 1 << 30

    /// A fixed modification date for every blob.
    static let lastModified = "Sun, 01 Nov 2026 00:00:00 GMT"

    /// Answers `GET|HEAD /files/blob/{bytes}`; `nil` for other paths.
    static func route(_ request: LoopbackRequest, segments: [Substring]) -> LoopbackAction? {
        guard segments.count == 3, segments[0] == "files", segments[1] == "blob", request.isRead else { return nil }
        guard let size = Int64(segments[2]), size >= 0, size <= maximumBlobSize else {
            return .respond(.json(.object([("error", .string("the size must be 0...\(maximumBlobSize) bytes"))]), status: .badRequest))
        }
        // The version comes from the query or from `X-Blob-Version` (which lets a test change the file
        // under a client that keeps asking for the same URL).
        let version =
            request.head.headers.first(name: "x-blob-version").flatMap(Int.init) ?? request.queryItem(named: "version").flatMap(Int.init)
            ?? 1
        guard BlobContent.versions.contains(version) else {
            return .respond(.json(.object([("error", "version must be 1...3")]), status: .badRequest))
        }
        let etag = BlobContent.etag(size: size, version: version)
        var headers: [(name: String, value: String)] = [
            ("content-type", "application/octet-stream"), ("etag", etag), ("last-modified", lastModified), ("accept-ranges", "bytes"),
        ]
        var status = HTTPResponseStatus.ok
        var start: Int64 = 0
        var end = size
        let ifRange = request.head.headers.first(name: "if-range")
        if let rangeHeader = request.head.headers.first(name: "range"), ifRange == nil || ifRange == etag || ifRange == lastModified {
            guard let range = parseRange(rangeHeader, size: size) else {
                var unsatisfiable = LoopbackResponse.json(.object([("error", "range not satisfiable")]), status: .rangeNotSatisfiable)
                unsatisfiable.extraHeaders = [("content-range", "bytes */\(size)")]
                return .respond(unsatisfiable)
            }
            (start, end) = range
            status = .partialContent
            headers.append(("content-range", "bytes \(start)-\(end - 1)/\(size)"))
        }
        let dropAt = request.queryItem(named: "dropAt").flatMap { Int64($0) }
        let pace = (request.head.headers.first(name: "x-blob-pace") ?? request.queryItem(named: "pace")).flatMap { Int64($0) }
        var stream = BlobStream(status: status, headers: headers, start: start, end: end, version: version, dropAt: dropAt)
        stream.watch = request.queryItem(named: "watch")
        stream.pace = pace.map { .milliseconds(min(max(0, $0), Int64(LoopbackRoutes.maxDelayMilliseconds))) }
        return .stream(stream)
    }

    /// `bytes=N-` or `bytes=N-M` (one range) as a half-open range within `size`; `nil` when unsatisfiable.
    static func parseRange(_ value: String, size: Int64) -> (Int64, Int64)? {
        guard value.hasPrefix("bytes="), !value.contains(",") else { return nil }
        let bounds = value.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int64(bounds[0]), first < size else { return nil }
        let last = bounds[1].isEmpty ? size - 1 : min(Int64(bounds[1]) ?? -1, size - 1)
        guard last >= first else { return nil }
        return (first, last + 1)
    }
}

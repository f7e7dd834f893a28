public import Foundation
public import HTTPTypes
import SwitchyardSupport

/// Writes a download's body to its ``DownloadTarget`` as a transport receives it: the one place
/// that decides how a `200` or `206` lands on disk, so that every transport resumes the same way.
///
/// ```swift
/// // In a transport, once the response head has arrived:
/// if let target = context.downloadTarget, DownloadSink.accepts(head) {
///     let sink = try DownloadSink(target: target, head: head, progress: context.reportReceived)
///     for try await chunk in body { try sink.write(chunk) }
///     response.file = try sink.finish()
/// }
/// ```
///
/// - The file and the resume record are private to the user (`0600`) from the moment they exist.
/// - A `200` replaces whatever the file held (the server sent the whole resource).
/// - A `206` must start exactly at ``DownloadTarget/resumeOffset`` (its `Content-Range` is checked);
///   the file is cut to that length and the bytes are appended.
/// - The validator (`ETag` when strong, otherwise `Last-Modified`) and the total length are recorded
///   before the first byte is written, so an interruption at any point leaves a resumable file.
/// - ``finish()`` fails with ``SwitchyardError/Code/transport`` when fewer bytes arrived than
///   announced: the partial file is kept for the next attempt and never presented as complete.
///
/// Downloads ask for the identity coding (see ``ContentCoding``), so the body is the file's bytes and
/// the announced length and ranges count them. A server may send a content coding anyway; a
/// transport that decoded such a body says so (`decodedCoding`), and the sink then writes the decoded
/// bytes without comparing them with the announced (encoded) length, up to
/// ``ContentCoding/decompressionLimit``, and records nothing to resume from: offsets into decoded
/// bytes mean nothing to the server, so an interrupted encoded download starts over. A `206` of an
/// encoded representation is refused (its bytes cannot be appended to a decoded file).
///
/// Download progress goes to `progress` with the *whole* resource as the total, so a
/// resumed download's progress continues where the earlier attempt stopped.
public final class DownloadSink {
    /// The target written to.
    public let target: DownloadTarget
    /// The offset the body starts at (the resume offset for a `206`, 0 for a `200`).
    public let start: Int64
    /// The whole resource's length, when the response announced it.
    public let total: Int64?
    private let handle: FileHandle
    private let progress: (@Sendable (TransferProgress) -> Void)?
    /// The content coding the transport removed from the body (such as `gzip`), or `nil` when the
    /// body arrives as the server sent it.
    public let decodedCoding: String?
    private var written: Int64 = 0
    private var closed = false

    /// Whether a response with this head is written to the target: a `200 OK` or `206 Partial Content`.
    public static func accepts(_ head: HTTPResponse) -> Bool {
        head.status.code == 200 || head.status.code == 206
    }

    /// Opens the target for a response with `head`.
    ///
    /// - Parameters:
    ///   - target: where the bytes go.
    ///   - head: the response head as the server sent it.
    ///   - progress: receives download progress (a transport passes ``CallContext/reportReceived(_:)``).
    ///   - decodedCoding: the content coding the transport removed from the body (such as `gzip`);
    ///     `nil` when the body arrives as sent.
    /// - Throws: ``SwitchyardError/Code/invalidResponse`` for a `206` whose range does not start at the
    ///   resume offset or cannot be read, or that is encoded; ``SwitchyardError/Code/storage`` when the
    ///   file cannot be written.
    public init(
        target: DownloadTarget,
        head: HTTPResponse,
        progress: (@Sendable (TransferProgress) -> Void)?,
        decodedCoding: String? = nil
    ) throws(SwitchyardError) {
        self.target = target
        self.progress = progress
        self.decodedCoding = decodedCoding
        let length = head.headerFields[.contentLength].flatMap { Int64($0) }
        if let decodedCoding, head.status.code == 206 {
            throw SwitchyardError(
                code: .invalidResponse,
                message: "the server answered the range with a \(decodedCoding)-encoded representation, whose bytes cannot be "
                    + "appended to the decoded file; the download asks for the identity coding"
            )
        }
        if decodedCoding != nil {
            // The announced length counts encoded bytes: nothing to compare the decoded ones with.
            start = 0
            total = nil
        } else if head.status.code == 206 {
            guard let range = head.headerFields[.contentRange].flatMap(ContentRange.init) else {
                throw SwitchyardError(code: .invalidResponse, message: "a 206 response without a readable Content-Range cannot be resumed")
            }
            guard range.first == target.resumeOffset else {
                throw SwitchyardError(
                    code: .invalidResponse,
                    message: "the server resumed at byte \(range.first), but the download asked for byte \(target.resumeOffset)"
                )
            }
            start = range.first
            total = range.total
        } else {
            start = 0
            total = length
        }
        let path = target.fileURL.path
        do {
            if start == 0 {
                handle = try PrivateFiles.create(target.fileURL, replacing: true)
            } else {
                handle = try PrivateFiles.openExisting(target.fileURL)
                try handle.truncate(atOffset: UInt64(start))
                try handle.seek(toOffset: UInt64(start))
            }
        } catch {
            throw SwitchyardError(
                code: .storage,
                message: "cannot open \(path) for the download: \(error.localizedDescription)",
                underlyingError: error
            )
        }
        if let recordURL = target.recordURL {
            if decodedCoding == nil {
                DownloadResumeRecord(head: head, total: total, start: start, resource: target.resource)?.save(to: recordURL)
            } else {
                // Decoded bytes cannot be resumed by offset: the next attempt starts over.
                try? FileManager.default.removeItem(at: recordURL)
            }
        }
        progress?(TransferProgress(completed: start, total: total))
    }

    deinit {
        if !closed { try? handle.close() }
    }

    /// The bytes written so far in this attempt.
    public var bytesWritten: Int64 { written }

    /// Appends a chunk.
    ///
    /// - Throws: ``SwitchyardError/Code/storage`` when the file cannot be written (a full disk),
    ///   ``SwitchyardError/Code/invalidResponse`` when the server sends more than it announced, or
    ///   ``SwitchyardError/Code/limitExceeded`` when a decoded body grows past ``ContentCoding/decompressionLimit``.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SwitchyardError) {
        guard !bytes.isEmpty else { return }
        if let total, start + written + Int64(bytes.count) > total {
            throw SwitchyardError(code: .invalidResponse, message: "the server sent more than the \(total) bytes it announced")
        }
        if decodedCoding != nil, written + Int64(bytes.count) > Int64(ContentCoding.decompressionLimit) {
            throw SwitchyardError.responseTooLarge(
                limit: ContentCoding.decompressionLimit,
                observed: Int(written) + bytes.count,
                decompressed: true,
                target: target.fileURL.lastPathComponent
            )
        }
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw SwitchyardError(
                code: .storage,
                message: "cannot write to \(target.fileURL.path): \(error.localizedDescription)",
                underlyingError: error
            )
        }
        written += Int64(bytes.count)
        progress?(TransferProgress(completed: start + written, total: total))
    }

    /// Appends a chunk of `Data`.
    public func write(_ data: Data) throws(SwitchyardError) {
        let outcome: Result<Void, SwitchyardError> = data.withUnsafeBytes { bytes in
            Result { () throws(SwitchyardError) in try write(bytes) }
        }
        try outcome.get()
    }

    /// Closes the file and describes it.
    ///
    /// - Throws: ``SwitchyardError/Code/transport`` when the body ended before the announced length
    ///   (the bytes received so far stay in the file for a later resume).
    public func finish() throws(SwitchyardError) -> DownloadedFile {
        closed = true
        try? handle.close()
        if let total, start + written < total {
            throw SwitchyardError(
                code: .transport,
                message:
                    "the connection ended after \(start + written) of \(total) bytes of the download; the partial file is kept for resuming"
            )
        }
        return DownloadedFile(url: target.fileURL, byteCount: start + written, resumedFrom: start)
    }

    /// A parsed `Content-Range: bytes first-last/total` (the total may be `*`).
    struct ContentRange {
        let first: Int64
        let last: Int64
        let total: Int64?

        init?(_ value: String) {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
            let spec = trimmed.dropFirst(6)
            let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard halves.count == 2 else { return nil }
            let bounds = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first >= 0, last >= first else {
                return nil
            }
            let total = halves[1] == "*" ? nil : Int64(halves[1])
            if halves[1] != "*" && (total == nil || total! <= last) { return nil }
            self.first = first
            self.last = last
            self.total = total
        }
    }
}

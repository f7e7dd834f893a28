import Foundation

/// The files of one download: the destination, the `.partial` file the bytes go to, and the
/// `.partial.resume` record beside it.
struct DownloadFiles {
    let destination: URL
    let partial: URL
    let recordFile: URL

    init(destination: URL) {
        self.destination = destination
        self.partial = URL(fileURLWithPath: destination.path + ".partial")
        self.recordFile = URL(fileURLWithPath: destination.path + ".partial.resume")
    }

    /// The resume record, when there is one.
    var record: DownloadResumeRecord? { DownloadResumeRecord.load(from: recordFile) }

    /// The partial file's current length (0 when absent).
    var partialSize: Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// How many bytes on disk can be resumed from for `resource`: the partial file's length when a
    /// record for the same resource exists and the file is not longer than the resource; else 0.
    func resumableOffset(for resource: String) -> Int64 {
        let size = partialSize
        guard size > 0, let record, record.resource == resource else { return 0 }
        if let total = record.total, size >= total { return 0 }
        return size
    }

    /// Removes the partial file and its record.
    func discard() {
        try? FileManager.default.removeItem(at: partial)
        try? FileManager.default.removeItem(at: recordFile)
    }

    /// The partial file a response produced. A transport that wrote it says so (``Response/Body/file(_:)``); a
    /// response whose body arrived in memory (a mock, a cache, a transport without file support) is
    /// written here — appended at `offset` for a `206`, from the start otherwise.
    func settle(_ response: Response, offset: Int64) throws(SwitchyardError) -> DownloadedFile {
        if case .file(let file) = response.body { return file }
        let target = DownloadTarget(fileURL: partial, resumeOffset: offset)
        let sink = try DownloadSink(target: target, head: response.head, progress: nil)
        try sink.write(response.bytes)
        return try sink.finish()
    }

    /// Moves the complete partial file to the destination (replacing it) and removes the record.
    func publish() throws(SwitchyardError) {
        do {
            if FileManager.default.fileExists(atPath: destination.path) {
                try FileManager.default.removeItem(at: destination)
            }
            try FileManager.default.moveItem(at: partial, to: destination)
        } catch {
            throw SwitchyardError(
                code: .storage,
                message: "cannot move the download to \(destination.path): \(error.localizedDescription)",
                underlyingError: error
            )
        }
        try? FileManager.default.removeItem(at: recordFile)
    }
}

import Foundation
import HTTPTypes
import Switchyard
import Synchronization

extension TransportConformance {
    /// A file in the temporary directory that is removed afterwards (it is not created here).
    func withTemporaryFile<T>(_ body: (URL) async throws -> T) async throws -> T {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-conformance-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        return try await body(file)
    }

    /// Bytes, then a slice of a file, then bytes — sent to `/echo` as a streamed body, with upload progress.
    func streamedUpload(_ transport: any Transport) async throws {
        let content = Data((0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) })
        try await withTemporaryFile { file in
            try content.write(to: file)
            let stream = StreamedBody(segments: [
                .bytes(Data("head:".utf8)), .file(file, offset: 1000, length: Int64(content.count - 2000)), .bytes(Data(":tail".utf8)),
            ])
            let expected = Data("head:".utf8) + content[1000..<(content.count - 1000)] + Data(":tail".utf8)
            var outgoing = try request(.post, "/echo", fields: [.contentType: "application/octet-stream"])
            outgoing.body = .stream(stream)
            let events = EventRecorder()
            var observed = context()
            observed.transferObserver = TransferObserver(sent: { events.record("\($0.completed)/\($0.total ?? -1)") })
            let response = try await transport.send(outgoing, context: observed)
            let echo = try echo(response)
            try expect(
                echo.method == "POST" && echo.bodyBase64 == expected.base64EncodedString(),
                "the streamed body did not arrive intact (\(echo.bodyBase64?.count ?? 0) base64 characters)"
            )
            try expect(
                events.events.last == "\(expected.count)/\(expected.count)",
                "the upload progress did not reach the total: \(events.events.suffix(3))"
            )
        }
    }

    /// A 3 MB ranged file downloaded to a target (from `resumeAt` when given, with the bytes before it
    /// already in place), compared with the same file fetched into memory.
    func downloadToFile(_ transport: any Transport, resumeAt offset: Int64?) async throws {
        let path = "/files/blob/3000017"
        let whole = try await transport.send(try request(.get, path), context: context())
        try expect(
            whole.status == .ok && whole.body.count == 3_000_017,
            "the file could not be fetched into memory: \(whole.status.code), \(whole.body.count) bytes"
        )
        try await withTemporaryFile { file in
            var fields = HTTPFields()
            if let offset {
                try whole.bytes.prefix(Int(offset)).write(to: file)
                fields[.range] = "bytes=\(offset)-"
                fields[.ifRange] = whole.headerFields[.eTag] ?? ""
            }
            let events = EventRecorder()
            var observed = context()
            observed.downloadTarget = DownloadTarget(fileURL: file, resumeOffset: offset ?? 0)
            observed.transferObserver = TransferObserver(received: { events.record("\($0.completed)/\($0.total ?? -1)") })
            let response = try await transport.send(try request(.get, path, fields: fields), context: observed)
            try expect(
                response.status.code == (offset == nil ? 200 : 206),
                "expected \(offset == nil ? 200 : 206), got \(response.status.code)"
            )
            try expect(
                response.bytes.isEmpty && response.body.file?.byteCount == 3_000_017,
                "the response should name a file of 3000017 bytes: \(String(describing: response.body.file)), body \(response.body.count)"
            )
            try expect(try Data(contentsOf: file) == whole.bytes, "the file's bytes differ from the resource")
            try expect(events.events.last == "3000017/3000017", "the download progress did not reach the total: \(events.events.suffix(3))")
        }
    }
}

extension TransportConformance {
    /// Upload and download progress of a few megabytes: a body in memory and a streamed one going up,
    /// a body coming into memory and one into a file — each reported monotonically, against one total,
    /// with at least one value strictly between nothing and the total, and the total as the last value.
    func intermediateProgress(_ transport: any Transport) async throws {
        // 2.5 MB that is not UTF-8 text, so its echo (Base64 only) stays under the response limit.
        let content = Data((0..<2_500_000).map { UInt8(truncatingIfNeeded: ($0 &* 131) | 0x80) })
        var upload = try request(.post, "/echo", fields: [.contentType: "application/octet-stream"], body: content)
        try await expectProgress("in-memory upload", of: upload, transport, sent: true, total: content.count)
        try await withTemporaryFile { file in
            try content.write(to: file)
            upload.body = .stream(StreamedBody(segments: [.file(file, offset: 0, length: Int64(content.count))]))
            try await expectProgress("streamed upload", of: upload, transport, sent: true, total: content.count)
        }
        let download = try request(.get, "/files/blob/3000000")
        try await expectProgress("in-memory download", of: download, transport, sent: false, total: 3_000_000)
        try await withTemporaryFile { file in
            try await expectProgress("download to a file", of: download, transport, sent: false, total: 3_000_000, into: file)
        }
    }

    /// Sends `request` and checks the upload (`sent`) or download progress it reported against `total`.
    /// Whether a report falls between nothing and the total depends on when the transport's stack
    /// samples a transfer that takes milliseconds on loopback (FoundationNetworking reports an upload
    /// from libcurl's progress callback), so that check alone allows three transfers; every transfer
    /// must pass the others.
    private func expectProgress(
        _ what: String,
        of request: Request,
        _ transport: any Transport,
        sent: Bool,
        total: Int,
        into file: URL? = nil
    ) async throws {
        for attempt in 1...3 {
            let intermediate = try await measureProgress(what, of: request, transport, sent: sent, total: total, into: file)
            try expect(
                intermediate.reported || attempt < 3,
                "the \(what) reported no progress between 0 and \(total) bytes: \(intermediate.summary)"
            )
            if intermediate.reported { return }
        }
    }

    /// One transfer of ``expectProgress(_:of:_:sent:total:into:)``: checks all but the intermediate
    /// report, and tells whether there was one.
    private func measureProgress(
        _ what: String,
        of request: Request,
        _ transport: any Transport,
        sent: Bool,
        total: Int,
        into file: URL?
    ) async throws -> (reported: Bool, summary: String) {
        let progress = Mutex<[TransferProgress]>([])
        var observed = context(timeout: .seconds(60))
        observed.downloadTarget = file.map { DownloadTarget(fileURL: $0) }
        observed.transferObserver =
            sent
            ? TransferObserver(sent: { value in progress.withLock { $0.append(value) } })
            : TransferObserver(received: { value in progress.withLock { $0.append(value) } })
        let response = try await transport.send(request, context: observed)
        try expect(response.status == .ok, "the \(what) was answered \(response.status.code)")
        if sent {
            try expect(try echo(response).bodyBase64?.count == (total + 2) / 3 * 4, "the \(what) did not arrive whole")
        } else {
            try expect(response.body.count == total, "the \(what) brought \(response.body.count) bytes, not \(total)")
        }
        let values = progress.withLock { $0 }
        let summary = "\(values.count) reports, the last \(values.suffix(2).map(\.description))"
        try expect(
            zip(values, values.dropFirst()).allSatisfy { $0.completed <= $1.completed } && values.allSatisfy { $0.total == Int64(total) },
            "the \(what)'s progress went backwards or changed its total: \(summary)"
        )
        try expect(values.last?.completed == Int64(total), "the \(what)'s progress did not end at its total: \(summary)")
        return (values.contains { $0.completed > 0 && $0.completed < Int64(total) }, summary)
    }
}

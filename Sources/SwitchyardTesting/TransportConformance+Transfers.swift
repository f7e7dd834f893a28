import Foundation
import HTTPTypes
import Switchyard

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

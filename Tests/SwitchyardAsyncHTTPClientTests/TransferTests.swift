import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCrypto
import SwitchyardMultipart
import SwitchyardSampleBackend
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// Uploads and downloads through the client and the sample backend's `/files` routes.
@Suite("Uploads and downloads over the wire")
struct TransferTests {
    /// What the backend reports about an upload.
    struct UploadReport: Decodable {
        struct Part: Decodable {
            let name: String?
            let filename: String?
            let type: String?
            let size: Int
            let sha256: String
        }

        let bytes: Int
        let sha256: String
        let parts: [Part]?
    }

    /// A scratch directory removed afterwards.
    static func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-transfer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    /// Deterministic bytes full of CR, LF and dashes.
    static func content(_ count: Int) -> Data {
        Data((0..<count).map { [0x0D, 0x0A, 0x2D, UInt8(truncatingIfNeeded: $0 >> 3), 0xFF][$0 % 5] })
    }

    static func sha256Hex(ofFileAt url: URL) throws -> String {
        let hasher = SHA256Hasher()
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { chunk.withUnsafeBytes { hasher.update($0) } }
        return Digest.hex(hasher.finalize())
    }

    /// The SHA-256 of the sample blob, computed from ``SampleBlob`` in pieces.
    static func blobSHA256(size: Int64, version: Int = 1) -> String {
        let hasher = SHA256Hasher()
        var offset: Int64 = 0
        while offset < size {
            let end = min(size, offset + (1 << 20))
            SampleBlob.bytes(offset..<end, version: version).withUnsafeBytes { hasher.update($0) }
            offset = end
        }
        return Digest.hex(hasher.finalize())
    }

    static func options(_ accessories: [any Accessory], timeout: Duration = .seconds(60)) -> CallOptions {
        var options = CallOptions(timeout: timeout)
        options.attach(accessories)
        return options
    }

    @Test("a streamed multipart upload of a file arrives field for field and byte for byte, with monotonic progress to 100 %")
    func streamedMultipartUpload() async throws {
        try await Self.withDirectory { directory in
            let file = directory.appendingPathComponent("video.mp4")
            let bytes = Self.content(1_500_011)
            try bytes.write(to: file)
            var form = MultipartBody()
            form.append(field: "title", "Holiday 张衡")
            try form.append(fileAt: file, field: "clip")
            form.append(file: Data("a,b\n".utf8), field: "table", fileName: "t.csv")
            let progress = ProgressRecorder()
            let report = try await withBackend { _, client in
                try await client.send(
                    .utility,
                    .post,
                    "/files/upload",
                    body: try form.streamedRequestBody(),
                    options: Self.options([progress]),
                    as: UploadReport.self
                ).value
            }
            await progress.waitForFinishes(1)
            let parts = try #require(report.parts)
            #expect(parts.map(\.name) == ["title", "clip", "table"])
            #expect(parts.map(\.filename) == [nil, "video.mp4", "t.csv"])
            #expect(parts.map(\.type) == [nil, "video/mp4", "text/csv"])
            #expect(parts[0].sha256 == Digest.hex(Digest.sha256(Data("Holiday 张衡".utf8))))
            #expect(parts[1].size == bytes.count && parts[1].sha256 == Digest.hex(Digest.sha256(bytes)))
            let total = try form.streamedBody().body.length
            #expect(Int64(report.bytes) == total)
            #expect(ProgressRecorder.isMonotonic(progress.sent))
            #expect(progress.sent.last == TransferProgress(completed: total, total: total))
        }
    }

    @Test("a raw file upload streams from disk; a missing file is a typed error before anything is sent")
    func rawFileUpload() async throws {
        try await Self.withDirectory { directory in
            let file = directory.appendingPathComponent("raw.bin")
            let bytes = Self.content(3_000_000)
            try bytes.write(to: file)
            try await withBackend { _, client in
                let report = try await client.send(.utility, .put, "/files/upload", body: try .file(file), as: UploadReport.self).value
                #expect(report.bytes == bytes.count && report.sha256 == Digest.hex(Digest.sha256(bytes)) && report.parts == nil)
            }
            #expect(throws: SwitchyardError.self) { _ = try RequestBody.file(directory.appendingPathComponent("missing.bin")) }
        }
    }

    @Test("a download is written to the destination with progress to 100 % and no partial file left")
    func download() async throws {
        try await Self.withDirectory { directory in
            let destination = directory.appendingPathComponent("blob.bin")
            let progress = ProgressRecorder()
            let size: Int64 = 8_000_000
            let result = try await withBackend { _, client in
                try await client.send(
                    DynamicEndpoint<Response>(service: .utility, method: .get, path: "/files/blob/\(size)").downloading(to: destination),
                    options: Self.options([progress])
                )
            }
            await progress.waitForFinishes(1)
            #expect(result.value.url == destination && result.value.byteCount == size && result.value.resumedFrom == 0)
            #expect(try Self.sha256Hex(ofFileAt: destination) == Self.blobSHA256(size: size))
            #expect(!FileManager.default.fileExists(atPath: destination.path + ".partial"))
            #expect(!FileManager.default.fileExists(atPath: destination.path + ".partial.resume"))
            #expect(ProgressRecorder.isMonotonic(progress.received))
            #expect(progress.received.last == TransferProgress(completed: size, total: size))
        }
    }

    @Test("a download broken off mid-way resumes within the call and its checksum matches")
    func resumesWithinTheCall() async throws {
        try await Self.withDirectory { directory in
            let destination = directory.appendingPathComponent("blob.bin")
            let size: Int64 = 5_000_000
            let expected = Self.blobSHA256(size: size)
            let progress = ProgressRecorder()
            let result = try await withBackend { _, client in
                try await client.send(
                    DynamicEndpoint<Response>(
                        service: .utility,
                        method: .get,
                        path: "/files/blob/\(size)",
                        parameters: ["dropAt": 2_100_003]
                    ).downloading(to: destination, options: DownloadOptions(checksum: .sha256(hex: expected))),
                    options: Self.options([progress])
                )
            }
            await progress.waitForFinishes(2)
            // The client keeps what arrived (AsyncHTTPClient may drop bytes it had buffered when the
            // connection broke) and resumes once; the server serves the range whole.
            #expect(result.value.resumes == 1 && result.value.checksum == expected)
            #expect(try Self.sha256Hex(ofFileAt: destination) == expected)
            #expect(ProgressRecorder.isMonotonic(progress.received) && progress.received.last?.isComplete == true)
        }
    }

    @Test("an interrupted download keeps its partial file, never the destination; the next call resumes with Range and If-Range")
    func resumesInTheNextCall() async throws {
        try await Self.withDirectory { directory in
            let destination = directory.appendingPathComponent("blob.bin")
            let size: Int64 = 4_000_000
            try await withBackend { _, client in
                let path = "/files/blob/\(size)"
                await #expect(throws: SwitchyardError.self) {
                    _ = try await client.send(
                        DynamicEndpoint<Response>(service: .utility, method: .get, path: path, parameters: ["dropAt": 1_500_000])
                            .downloading(to: destination, options: DownloadOptions(maximumResumes: 0))
                    )
                }
                #expect(!FileManager.default.fileExists(atPath: destination.path))
                let partial = try Data(contentsOf: URL(fileURLWithPath: destination.path + ".partial"))
                #expect(partial.count > 0 && partial.count <= 1_500_000 && partial == SampleBlob.bytes(0..<Int64(partial.count)))

                let recorder = EventRecorder()
                var options = CallOptions()
                options.additionalStages = [
                    ClosureStage.request(id: "wire") { request, _ in
                        recorder.record("\(request.headerFields[.range] ?? "-") \(request.headerFields[.ifRange] ?? "-")")
                    }
                ]
                let result = try await client.send(
                    DynamicEndpoint<Response>(service: .utility, method: .get, path: path, parameters: ["dropAt": 1_500_000]).downloading(
                        to: destination,
                        options: DownloadOptions(checksum: .sha256(hex: Self.blobSHA256(size: size)))
                    ),
                    options: options
                )
                #expect(result.value.resumedFrom == Int64(partial.count) && result.status.code == 206)
                #expect(recorder.events == ["bytes=\(partial.count)- \(SampleBlob.etag(size: size))"])
            }
        }
    }

    @Test("when the file changed on the server, If-Range gets the whole new file and the download restarts")
    func changedFileRestarts() async throws {
        try await Self.withDirectory { directory in
            let destination = directory.appendingPathComponent("blob.bin")
            let size: Int64 = 3_000_000
            try await withBackend { _, client in
                let path = "/files/blob/\(size)"
                await #expect(throws: SwitchyardError.self) {
                    _ = try await client.send(
                        DynamicEndpoint<Response>(service: .utility, method: .get, path: path, parameters: ["dropAt": 1_000_000])
                            .downloading(to: destination, options: DownloadOptions(maximumResumes: 0))
                    )
                }
                let result = try await client.send(
                    DynamicEndpoint<Response>(
                        service: .utility,
                        method: .get,
                        path: path,
                        parameters: ["dropAt": 1_000_000],
                        headerFields: [HTTPField.Name("X-Blob-Version")!: "2"]
                    ).downloading(
                        to: destination,
                        options: DownloadOptions(checksum: .sha256(hex: Self.blobSHA256(size: size, version: 2)))
                    )
                )
                // v2 comes whole (200) from the first byte, is broken off again, and is resumed once.
                #expect(result.value.resumedFrom == 0 && result.value.resumes == 1 && result.status.code == 206)
                #expect(try Self.sha256Hex(ofFileAt: destination) == Self.blobSHA256(size: size, version: 2))
            }
        }
    }

    @Test("a checksum mismatch fails with integrity; an error status fails with httpStatus; neither leaves a file")
    func failuresLeaveNothing() async throws {
        try await Self.withDirectory { directory in
            let destination = directory.appendingPathComponent("blob.bin")
            try await withBackend { _, client in
                let wrong = DownloadChecksum.sha256(hex: String(repeating: "0", count: 64))
                await #expect {
                    _ = try await client.send(
                        DynamicEndpoint<Response>(service: .utility, method: .get, path: "/files/blob/100000").downloading(
                            to: destination,
                            options: DownloadOptions(checksum: wrong)
                        )
                    )
                } throws: { error in
                    (error as? SwitchyardError)?.code == .integrity
                }
                await #expect {
                    _ = try await client.send(
                        DynamicEndpoint<Response>(service: .utility, method: .get, path: "/status/404").downloading(to: destination)
                    )
                } throws: { error in
                    (error as? SwitchyardError)?.code == .httpStatus && (error as? SwitchyardError)?.status?.code == 404
                }
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(left.isEmpty, "left behind: \(left)")
        }
    }
}

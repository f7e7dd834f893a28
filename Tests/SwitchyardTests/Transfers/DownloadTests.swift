import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Downloads: the sink, resumption records and the client loop without a network")
struct DownloadTests {
    static func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-download-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    static func head(_ status: Int, _ fields: [(String, String)]) -> HTTPResponse {
        var headerFields = HTTPFields()
        for (name, value) in fields { headerFields[HTTPField.Name(name)!] = value }
        return HTTPResponse(status: HTTPResponse.Status(code: status), headerFields: headerFields)
    }

    @Test("a 206 appends at the resume offset, cutting anything past it; progress counts the whole resource")
    func appendsAtOffset() async throws {
        try await Self.withDirectory { directory in
            let file = directory.appendingPathComponent("f.partial")
            try Data("hello-STALE".utf8).write(to: file)
            let events = EventRecorder()
            let observer = TransferObserver(received: { events.record("\($0.completed)/\($0.total ?? -1)") })
            let sink = try DownloadSink(
                target: DownloadTarget(fileURL: file, resumeOffset: 5),
                head: Self.head(206, [("Content-Range", "bytes 5-10/11")]),
                progress: observer.received
            )
            try sink.write(Data(" world".utf8))
            let result = try sink.finish()
            #expect(try Data(contentsOf: file) == Data("hello world".utf8))
            #expect(result.byteCount == 11 && result.resumedFrom == 5)
            #expect(events.events == ["5/11", "11/11"])
        }
    }

    @Test("a 200 replaces the file; a 206 at the wrong offset, an unreadable range, too many or too few bytes are typed errors")
    func failures() async throws {
        try await Self.withDirectory { directory in
            let file = directory.appendingPathComponent("f.partial")
            try Data("old bytes".utf8).write(to: file)
            let whole = try DownloadSink(
                target: DownloadTarget(fileURL: file, resumeOffset: 4),
                head: Self.head(200, [("Content-Length", "3")]),
                progress: nil
            )
            try whole.write(Data("new".utf8))
            _ = try whole.finish()
            #expect(try Data(contentsOf: file) == Data("new".utf8))

            #expect {
                _ = try DownloadSink(
                    target: DownloadTarget(fileURL: file, resumeOffset: 3),
                    head: Self.head(206, [("Content-Range", "bytes 0-9/10")]),
                    progress: nil
                )
            } throws: { ($0 as? SwitchyardError)?.code == .invalidResponse }
            #expect {
                _ = try DownloadSink(
                    target: DownloadTarget(fileURL: file, resumeOffset: 3),
                    head: Self.head(206, [("Content-Range", "bytes 3-1/10")]),
                    progress: nil
                )
            } throws: { ($0 as? SwitchyardError)?.code == .invalidResponse }
            let long = try DownloadSink(
                target: DownloadTarget(fileURL: file),
                head: Self.head(200, [("Content-Length", "2")]),
                progress: nil
            )
            #expect { try long.write(Data("abc".utf8)) } throws: { ($0 as? SwitchyardError)?.code == .invalidResponse }
            let short = try DownloadSink(
                target: DownloadTarget(fileURL: file),
                head: Self.head(200, [("Content-Length", "5")]),
                progress: nil
            )
            try short.write(Data("ab".utf8))
            #expect { _ = try short.finish() } throws: { ($0 as? SwitchyardError)?.code == .transport }
            #expect(try Data(contentsOf: file) == Data("ab".utf8))  // kept for resuming
        }
    }

    @Test("a response that arrives in memory (a stub, a cache) is written to the destination like a streamed one")
    func inMemoryResponses() async throws {
        try await Self.withDirectory { directory in
            let transport = MockTransport(.status(.ok, body: "file contents", headerFields: [.eTag: "\"e1\""]))
            let client = try makeClient(transport: transport)
            let destination = directory.appendingPathComponent("out.txt")
            let result = try await client.send(
                DynamicEndpoint<Response>(service: .users, method: .get, path: "/files/1").downloading(to: destination)
            )
            #expect(result.value.url == destination && result.value.byteCount == 13)
            #expect(try String(contentsOf: destination, encoding: .utf8) == "file contents")
            #expect(transport.contexts.first?.downloadTarget?.fileURL.path == destination.path + ".partial")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.txt"])
        }
    }

    @Test("a partial file is resumed only for the same resource and with a strong validator")
    func resumesOnlyWhatMatches() async throws {
        try await Self.withDirectory { directory in
            let destination = directory.appendingPathComponent("out.bin")
            // First call: the connection breaks after 4 of 10 bytes; no resumes allowed.
            let broken = MockTransport { request, context in
                let target = try #require(context.downloadTarget)
                let sink = try DownloadSink(
                    target: target,
                    head: Self.head(200, [("Content-Length", "10"), ("ETag", "\"v1\"")]),
                    progress: nil
                )
                try sink.write(Data("0123".utf8))
                _ = try sink.finish()
                return Response(status: .ok)
            }
            let client = try makeClient(transport: broken)
            await #expect {
                _ = try await client.send(
                    DynamicEndpoint<Response>(service: .users, method: .get, path: "/f").downloading(
                        to: destination,
                        options: DownloadOptions(maximumResumes: 0)
                    )
                )
            } throws: { ($0 as? SwitchyardError)?.code == .transport }
            #expect(!FileManager.default.fileExists(atPath: destination.path))

            // Second call, another resource: starts over without Range.
            let fresh = MockTransport(.status(.ok, body: "abcdefghij"))
            _ = try await makeClient(transport: fresh).send(
                DynamicEndpoint<Response>(service: .users, method: .get, path: "/other").downloading(to: destination)
            )
            #expect(fresh.requests.first?.headerFields[.range] == nil)

            // A weak validator is never resumed: the record is not written.
            let weak = MockTransport { _, context in
                let sink = try DownloadSink(
                    target: try #require(context.downloadTarget),
                    head: Self.head(200, [("Content-Length", "10"), ("ETag", "W/\"v1\"")]),
                    progress: nil
                )
                try sink.write(Data("0123".utf8))
                _ = try sink.finish()
                return Response(status: .ok)
            }
            await #expect(throws: SwitchyardError.self) {
                _ = try await makeClient(transport: weak).send(
                    DynamicEndpoint<Response>(service: .users, method: .get, path: "/f").downloading(
                        to: destination,
                        options: DownloadOptions(maximumResumes: 0)
                    )
                )
            }
            #expect(!FileManager.default.fileExists(atPath: destination.path + ".partial.resume"))
        }
    }

    @Test("resume off: a failure removes the partial file")
    func resumeOff() async throws {
        try await Self.withDirectory { directory in
            let destination = directory.appendingPathComponent("out.bin")
            let broken = MockTransport { _, context in
                let sink = try DownloadSink(
                    target: try #require(context.downloadTarget),
                    head: Self.head(200, [("Content-Length", "10"), ("ETag", "\"v1\"")]),
                    progress: nil
                )
                try sink.write(Data("0123".utf8))
                _ = try sink.finish()
                return Response(status: .ok)
            }
            await #expect(throws: SwitchyardError.self) {
                _ = try await makeClient(transport: broken).send(
                    DynamicEndpoint<Response>(service: .users, method: .get, path: "/f").downloading(
                        to: destination,
                        options: DownloadOptions(resume: false)
                    )
                )
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(left.isEmpty)
        }
    }

    @Test("a download refused for its size leaves no partial file: a refusal is not resumable")
    func sizeRefusalLeavesNothing() async throws {
        try await Self.withDirectory { directory in
            let destination = directory.appendingPathComponent("out.bin")
            // A server that encodes the download anyway, and whose bytes decode past the limit.
            let bomb = MockTransport { _, context in
                let sink = try DownloadSink(
                    target: try #require(context.downloadTarget),
                    head: Self.head(200, [("Content-Encoding", "gzip"), ("ETag", "\"v1\"")]),
                    progress: nil,
                    decodedCoding: "gzip"
                )
                let chunk = Data(count: 1 << 20)
                while true { try sink.write(chunk) }
            }
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await makeClient(transport: bomb).send(
                    DynamicEndpoint<Response>(service: .users, method: .get, path: "/f").downloading(to: destination)
                )
            }
            #expect(error?.code == .limitExceeded)
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(left.isEmpty)
        }
    }

    @Test(
        "a failed download keeps its partial file only when interrupted with resumable bytes on disk",
        arguments: [
            (SwitchyardError.Code.invalidResponse, "\"v1\"", false), (.storage, "\"v1\"", false), (.httpStatus, "\"v1\"", false),
            (.transport, "\"v1\"", true), (.timeout, "\"v1\"", true), (.cancelled, "\"v1\"", true),
            // A weak validator writes no resume record: nothing on disk could be resumed.
            (.transport, "W/\"v1\"", false),
        ]
    )
    func keepsOnlyResumablePartials(code: SwitchyardError.Code, etag: String, kept: Bool) async throws {
        try await Self.withDirectory { directory in
            let destination = directory.appendingPathComponent("out.bin")
            let failing = MockTransport { _, context in
                let sink = try DownloadSink(
                    target: try #require(context.downloadTarget),
                    head: Self.head(200, [("Content-Length", "10"), ("ETag", etag)]),
                    progress: nil
                )
                try sink.write(Data("0123".utf8))
                throw SwitchyardError(code: code, message: "failed after 4 bytes")
            }
            await #expect(throws: SwitchyardError.self) {
                _ = try await makeClient(transport: failing).send(
                    DynamicEndpoint<Response>(service: .users, method: .get, path: "/f").downloading(
                        to: destination,
                        options: DownloadOptions(maximumResumes: 0)
                    )
                )
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(left == (kept ? ["out.bin.partial", "out.bin.partial.resume"] : []), "\(code)")
        }
    }

    @Test("a partial download and its resume record are private to the user (0600)")
    func partialFilesArePrivate() async throws {
        useTheUsualUmask()
        try await Self.withDirectory { directory in
            let destination = directory.appendingPathComponent("out.bin")
            let broken = MockTransport { _, context in
                let sink = try DownloadSink(
                    target: try #require(context.downloadTarget),
                    head: Self.head(200, [("Content-Length", "10"), ("ETag", "\"v1\"")]),
                    progress: nil
                )
                try sink.write(Data("0123".utf8))
                _ = try sink.finish()
                return Response(status: .ok)
            }
            await #expect(throws: SwitchyardError.self) {
                _ = try await makeClient(transport: broken).send(
                    DynamicEndpoint<Response>(service: .users, method: .get, path: "/f").downloading(
                        to: destination,
                        options: DownloadOptions(maximumResumes: 0)
                    )
                )
            }
            let partial = try permissions(of: URL(fileURLWithPath: destination.path + ".partial"))
            let record = try permissions(of: URL(fileURLWithPath: destination.path + ".partial.resume"))
            #expect(partial == 0o600)
            #expect(record == 0o600)
        }
    }

    @Test("a 206 resuming a partial file an earlier version left readable by others makes it private (0600)")
    func resumedPartialIsTightened() async throws {
        useTheUsualUmask()
        try await Self.withDirectory { directory in
            let file = directory.appendingPathComponent("f.partial")
            try Data("hello".utf8).write(to: file)
            #expect(try permissions(of: file) == 0o644)
            let sink = try DownloadSink(
                target: DownloadTarget(fileURL: file, resumeOffset: 5),
                head: Self.head(206, [("Content-Range", "bytes 5-10/11")]),
                progress: nil
            )
            try sink.write(Data(" world".utf8))
            _ = try sink.finish()
            #expect(try permissions(of: file) == 0o600)
        }
    }

    @Test("a checksum that is not hexadecimal is refused when made")
    func checksumParsing() {
        let hasher: @Sendable () -> any IncrementalHasher = { fatalError("not used") }
        #expect(DownloadChecksum(algorithm: "x", hex: "zz", makeHasher: hasher) == nil)
        #expect(DownloadChecksum(algorithm: "x", hex: "abc", makeHasher: hasher) == nil)
        #expect(DownloadChecksum(algorithm: "x", hex: "0aFF", makeHasher: hasher)?.expected == Data([0x0A, 0xFF]))
    }
}

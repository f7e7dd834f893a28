import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Call progress: upload and download, through the handle and through per-call blocks", .timeLimit(.minutes(1)))
struct CallProgressTests {
    static let chunk = 64 << 10
    static let size = 4 * chunk

    /// Reads a streamed request body in chunks and reports each one, as a real transport does;
    /// waits at `gate` first, so a test can subscribe before anything is reported.
    static func uploadTransport(_ gate: Gate) -> MockTransport {
        MockTransport { request, context in
            try await gate.pass()
            let body = try #require(request.body?.stream)
            var sent: Int64 = 0
            for try await piece in body.chunks(size: chunk) {
                sent += Int64(piece.count)
                context.transferObserver?.sent(TransferProgress(completed: sent, total: body.length))
            }
            return Response(status: .ok, body: Data("{}".utf8))
        }
    }

    /// Writes a `size`-byte body to the download target in chunks through a ``DownloadSink``, which
    /// reports each one; waits at `gate` first.
    static func downloadTransport(_ gate: Gate) -> MockTransport {
        MockTransport { _, context in
            try await gate.pass()
            let head = HTTPResponse(status: .ok, headerFields: [.contentLength: String(size)])
            let sink = try DownloadSink(target: try #require(context.downloadTarget), head: head, progress: context.reportReceived)
            for _ in 0..<4 { try sink.write(Data(repeating: 7, count: chunk)) }
            return Response(head: head, body: .file(try sink.finish()))
        }
    }

    static var upload: DynamicEndpoint<Response> {
        let body = StreamedBody(segments: [.bytes(Data(repeating: 1, count: size))])
        return DynamicEndpoint<Response>(service: .users, method: .post, path: "/avatar", body: .stream(body, contentType: "image/png"))
    }

    /// Whether counts never go backwards, share one total, and end at it.
    static func isMonotonicAndComplete(_ values: [TransferProgress]) -> Bool {
        ProgressRecorder.isMonotonic(values) && values.last?.isComplete == true && values.last?.total == Int64(size)
    }

    static func collect(_ stream: AsyncStream<CallProgress>) async -> [CallProgress] {
        var events: [CallProgress] = []
        for await event in stream { events.append(event) }
        return events
    }

    @Test("an upload's progress through the handle: monotonic, complete, the stream ends with the call")
    func uploadThroughHandle() async throws {
        let gate = Gate()
        let client = try makeClient(transport: Self.uploadTransport(gate))
        let handle = client.start(Self.upload)
        let stream = handle.progress
        gate.open()
        let events = await Self.collect(stream)
        let uploads = events.compactMap(\.upload)
        // Each event carries both directions: the upload repeats in the events of the download.
        let steps = uploads.map(\.completed).reduce(into: [Int64]()) { if $0.last != $1 { $0.append($1) } }
        #expect(steps == [1, 2, 3, 4].map { Int64($0 * Self.chunk) })
        #expect(Self.isMonotonicAndComplete(uploads))
        #expect(try await handle.result.get().status == .ok)
        #expect(handle.currentProgress.upload?.isComplete == true)
    }

    @Test("an upload's progress through the uploadProgress block: every chunk, in order")
    func uploadThroughBlock() async throws {
        let gate = Gate()
        gate.open()
        let client = try makeClient(transport: Self.uploadTransport(gate))
        let reported = Locked<[TransferProgress]>([])
        var options = CallOptions()
        options.uploadProgress = { progress in reported.withLock { $0.append(progress) } }
        _ = try await client.send(Self.upload, options: options)
        let values = reported.withLock { $0 }
        #expect(values.map(\.completed) == [1, 2, 3, 4].map { Int64($0 * Self.chunk) })
        #expect(Self.isMonotonicAndComplete(values))
    }

    @Test("a download's progress through the handle: monotonic, complete, the file in place")
    func downloadThroughHandle() async throws {
        let directory = try TemporaryDirectory()
        let gate = Gate()
        let client = try makeClient(transport: Self.downloadTransport(gate))
        let destination = directory.url.appendingPathComponent("big.bin")
        let handle = client.start(DynamicEndpoint<Response>(service: .users, method: .get, path: "/big").downloading(to: destination))
        let stream = handle.progress
        gate.open()
        let downloads = await Self.collect(stream).compactMap(\.download)
        #expect(downloads.count >= 4)
        #expect(Self.isMonotonicAndComplete(downloads))
        let file = try await handle.value
        #expect(file.byteCount == Int64(Self.size))
        #expect(FileManager.default.fileExists(atPath: destination.path))
    }

    @Test("a download's progress through the downloadProgress block: monotonic and complete")
    func downloadThroughBlock() async throws {
        let directory = try TemporaryDirectory()
        let gate = Gate()
        gate.open()
        let client = try makeClient(transport: Self.downloadTransport(gate))
        let reported = Locked<[TransferProgress]>([])
        var options = CallOptions()
        options.downloadProgress = { progress in reported.withLock { $0.append(progress) } }
        _ = try await client.send(
            DynamicEndpoint<Response>(service: .users, method: .get, path: "/big").downloading(
                to: directory.url.appendingPathComponent("big.bin")
            ),
            options: options
        )
        let values = reported.withLock { $0 }
        #expect(values.count >= 4)
        #expect(Self.isMonotonicAndComplete(values))
    }

    @Test("a reader that subscribes after the call ended gets the final progress and an ended stream")
    func lateReader() async throws {
        let gate = Gate()
        gate.open()
        let client = try makeClient(transport: Self.uploadTransport(gate))
        let handle = client.start(Self.upload)
        _ = await handle.result
        let events = await Self.collect(handle.progress)
        #expect(events.count == 1)
        #expect(events.first?.upload?.isComplete == true)
    }
}

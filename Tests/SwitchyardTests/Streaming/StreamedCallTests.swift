import Foundation
import HTTPTypes
import InMemoryLogging
import Logging
import Switchyard
import SwitchyardTesting
import Synchronization
import Testing

/// What a streaming transport's producer did: chunks written and how it ended.
private final class ProducerLog: Sendable {
    let written = Atomic<Int>(0)
    let stopped = Atomic<Bool>(false)
    let finished = Atomic<Bool>(false)
    let limits = Mutex<[Int?]>([])

    var didStop: Bool { stopped.load(ordering: .acquiring) }
    var didFinish: Bool { finished.load(ordering: .acquiring) }
    var writes: Int { written.load(ordering: .relaxed) }
}

/// A transport that answers a streamed call with `count` chunks of `size` bytes, the later ones
/// after `gate` opens (when given), and a call that is not streamed with the whole body.
private struct ChunkTransport: Transport {
    let log: ProducerLog
    var count = 8
    var size = 1000
    var status: HTTPResponse.Status = .ok
    var gate: Gate?
    /// Whether the producer fails, as a reset connection, after writing every chunk.
    var failsAtEnd = false

    func send(_ request: Request, context: CallContext) async throws -> Response {
        log.limits.withLock { $0.append(context.streamBufferLimit) }
        let head = HTTPResponse(
            status: status,
            headerFields: [.contentType: "text/plain", .init("X-Seen")!: request.headerFields[.init("X-Stage")!] ?? ""]
        )
        guard let limit = context.streamBufferLimit else {
            return Response(head: head, bytes: Data(repeating: 0x61, count: count * size))
        }
        let (log, count, size, gate, failsAtEnd) = (log, count, size, gate, failsAtEnd)
        let stream = ResponseStream(control: context.control, bufferLimit: limit) { writer in
            do {
                for index in 0..<count {
                    if index == 1, let gate { try await gate.pass() }
                    try await writer.write(Data(repeating: UInt8(0x61 + index % 26), count: size))
                    log.written.add(1, ordering: .relaxed)
                }
                log.finished.store(true, ordering: .releasing)
                if failsAtEnd { throw SwitchyardError(code: .transport, message: "the connection was reset") }
            } catch {
                log.stopped.store(true, ordering: .releasing)
                throw error
            }
        }
        return Response(head: head, body: .stream(stream))
    }
}

private func streamEndpoint(tags: Set<RequestTag> = []) -> DynamicEndpoint<ResponseStream> {
    DynamicEndpoint<ResponseStream>(service: .users, method: .get, path: "/feed", options: CallOptions(tags: tags))
}

/// Waits (by yielding, no clock) until `condition` holds, at most `turns` scheduler turns.
private func eventually(turns: Int = 100_000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<turns {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

@Suite("Streamed calls: the head first, then the body as it arrives, through the pipeline")
struct StreamedCallTests {
    @Test("request stages run, the call returns at the head, and every chunk arrives in order")
    func chunksInOrder() async throws {
        let log = ProducerLog()
        let stage = ClosureStage.request(id: "Tag") { (request: inout Request, _: CallContext) in
            request.headerFields[HTTPField.Name("X-Stage")!] = "ran"
        }
        let client = try makeClient(stages: [stage], transport: ChunkTransport(log: log))
        let result = try await client.send(streamEndpoint())
        #expect(result.headerFields[HTTPField.Name("X-Seen")!] == "ran")
        var chunks: [Data] = []
        for try await chunk in result.value { chunks.append(chunk) }
        #expect(chunks.count == 8)
        #expect(chunks.map(\.first) == (0..<8).map { UInt8(0x61 + $0) })
        #expect(log.didFinish)
    }

    @Test("a streamed call asks the transport to stream, with the default buffer; other calls do not")
    func transportIsAsked() async throws {
        let log = ProducerLog()
        let client = try makeClient(transport: ChunkTransport(log: log))
        _ = try await client.send(streamEndpoint())
        _ = try await client.send(.users, .get, "/whole")
        #expect(log.limits.withLock { $0 } == [ResponseStream.defaultBufferLimit, nil])
    }

    @Test("a slow consumer holds the producer at the buffer's limit")
    func backpressure() async throws {
        let log = ProducerLog()
        let client = try makeClient(transport: ChunkTransport(log: log, count: 50, size: 1000))
        var options = CallOptions()
        options.setContextValue(4000, for: ResponseStream.BufferLimit.self)
        let result = try await client.send(streamEndpoint(), options: options)
        var iterator = result.value.makeAsyncIterator()
        _ = try await iterator.next()
        // However long the producer runs, it cannot write more than the buffer holds past what was read.
        for _ in 0..<10_000 { await Task.yield() }
        #expect(log.writes <= 1 + 4 + 1)
        var total = 1
        while try await iterator.next() != nil { total += 1 }
        #expect(total == 50)
    }

    @Test("a writer waiting on a full buffer in a task of its own ends with CancellationError when that task is cancelled")
    func waitingWriterHonoursItsTaskCancellation() async throws {
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        let cancelNow = Atomic<Bool>(false)
        let stream = ResponseStream(control: CallControl(), bufferLimit: 10) { writer in
            // A transport of the user's own writing from a child task: the stream does not know it.
            let child = Task {
                try await writer.write(Data(count: 10))  // fills the buffer: waits for a reader
            }
            while !cancelNow.load(ordering: .acquiring) { await Task.yield() }
            child.cancel()
            let result = await child.result
            outcome.withLock { $0 = result }
        }
        // The chunk is buffered, so the writer waits; nothing reads, so only its cancellation can end it.
        #expect(await eventually { stream.heldChunkSlots == 1 })
        cancelNow.store(true, ordering: .releasing)
        #expect(await eventually { outcome.withLock { $0 } != nil })
        let result = outcome.withLock { $0 }
        #expect(throws: CancellationError.self) { try result?.get() }
    }

    @Test("a consumer the producer always keeps ahead of holds only what is buffered, not what it read")
    func consumedChunksAreLetGo() async throws {
        let log = ProducerLog()
        let client = try makeClient(transport: ChunkTransport(log: log, count: 2000, size: 100))
        var options = CallOptions()
        options.setContextValue(1000, for: ResponseStream.BufferLimit.self)
        let stream = try await client.send(streamEndpoint(), options: options).value
        var iterator = stream.makeAsyncIterator()
        var read = 0
        var mostHeld = 0
        while try await iterator.next() != nil {
            read += 1
            // Let the producer fill the buffer again before each read, so it never empties.
            if read % 5 == 0 { _ = await eventually(turns: 1000) { log.writes >= min(2000, read + 10) } }
            mostHeld = max(mostHeld, stream.heldChunkSlots)
        }
        #expect(read == 2000)
        // 10 chunks fill the buffer; the array may hold up to twice that, plus 64 read slots.
        #expect(mostHeld <= 2 * 11 + 64)
    }

    @Test("cancelling the call by tag after the head ends the stream with .cancelled and stops the producer")
    func cancelByTag() async throws {
        let log = ProducerLog()
        let gate = Gate()
        let client = try makeClient(transport: ChunkTransport(log: log, gate: gate))
        let result = try await client.send(streamEndpoint(tags: ["live"]))
        var iterator = result.value.makeAsyncIterator()
        #expect(try await iterator.next() != nil)
        #expect(client.cancel(.tag("live")) == [result.requestID])
        let error = await #expect(throws: SwitchyardError.self) { _ = try await iterator.next() }
        #expect(error?.code == .cancelled)
        #expect(await eventually { log.didStop })
    }

    @Test("a failed read delivers every chunk buffered before it, then ends the stream with its error")
    func failureAfterBufferedChunks() async throws {
        let log = ProducerLog()
        let client = try makeClient(transport: ChunkTransport(log: log, count: 4, size: 10, failsAtEnd: true))
        let result = try await client.send(streamEndpoint(tags: ["live"]))
        // The producer writes all four chunks into the buffer and fails before anything is read.
        #expect(await eventually { log.didStop })
        var chunks = 0
        let error = await #expect(throws: SwitchyardError.self) {
            for try await _ in result.value { chunks += 1 }
        }
        #expect(chunks == 4)
        #expect(error?.code == .transport)
        #expect(await eventually { client.cancel(.tag("live")).isEmpty })
    }

    @Test("a finished stream leaves the client's calls in flight")
    func finishedStreamLeavesFlight() async throws {
        let client = try makeClient(transport: ChunkTransport(log: ProducerLog(), count: 2))
        let result = try await client.send(streamEndpoint(tags: ["live"]))
        for try await _ in result.value {}
        #expect(await eventually { client.cancel(.tag("live")).isEmpty })
    }

    @Test("cancelling the consuming task ends the stream with .cancelled")
    func consumerTaskCancelled() async throws {
        let log = ProducerLog()
        let gate = Gate()
        let client = try makeClient(transport: ChunkTransport(log: log, gate: gate))
        let stream = try await client.send(streamEndpoint()).value
        let reader = Task {
            var count = 0
            for try await _ in stream { count += 1 }
            return count
        }
        _ = await eventually { gate.arrivals == 1 }
        reader.cancel()
        let error = await #expect(throws: SwitchyardError.self) { _ = try await reader.value }
        #expect(error?.code == .cancelled)
        #expect(await eventually { log.didStop })
    }

    @Test("leaving the loop early stops the producer")
    func breakStopsProducer() async throws {
        let log = ProducerLog()
        let client = try makeClient(transport: ChunkTransport(log: log, count: 1000, size: 10))
        var options = CallOptions()
        options.setContextValue(100, for: ResponseStream.BufferLimit.self)
        do {
            let stream = try await client.send(streamEndpoint(), options: options).value
            for try await _ in stream { break }
        }
        #expect(await eventually { log.didStop })
        #expect(!log.didFinish)
    }

    @Test("a stream can be read once; a second iterator fails")
    func readOnce() async throws {
        let stream = try await makeClient(transport: ChunkTransport(log: ProducerLog(), count: 1)).send(streamEndpoint()).value
        for try await _ in stream {}
        var second = stream.makeAsyncIterator()
        await #expect(throws: SwitchyardError.self) { _ = try await second.next() }
    }

    @Test("a refused status ends as httpStatus with the stream's first bytes, and stops the producer")
    func refusedStatus() async throws {
        let log = ProducerLog()
        let client = try makeClient(transport: ChunkTransport(log: log, count: 1000, size: 1000, status: .serviceUnavailable))
        var options = CallOptions()
        options.setContextValue(100_000, for: ResponseStream.BufferLimit.self)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(streamEndpoint(), options: options) }
        #expect(error?.code == .httpStatus)
        #expect(error?.response?.bytes.count == 64 << 10)
        #expect(await eventually { log.didStop })
    }

    @Test("the envelope stage refuses a streamed body with unsupportedBody instead of reading it whole")
    func envelopeRefuses() async throws {
        let envelope = EnvelopeStage(success: .codes(["0"]))
        let client = try makeClient(stages: [envelope], transport: ChunkTransport(log: ProducerLog()))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(streamEndpoint()) }
        #expect(error?.code == .unsupportedBody)
        #expect(error?.stage == .envelope)
        var skipping = CallOptions()
        skipping.skippedStages = [.envelope]
        #expect(try await client.send(streamEndpoint(), options: skipping).status == .ok)
    }

    @Test("releasing the call's scope after the head ends the stream with .cancelled")
    func scopeAfterHead() async throws {
        let log = ProducerLog()
        let client = try makeClient(transport: ChunkTransport(log: log, gate: Gate()))
        let scope = RequestScope()
        var options = CallOptions()
        options.scope = scope
        let stream = try await client.send(streamEndpoint(), options: options).value
        #expect(scope.inFlightCount == 1)
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() != nil)
        scope.cancelAll()
        let error = await #expect(throws: SwitchyardError.self) { _ = try await iterator.next() }
        #expect(error?.code == .cancelled)
        #expect(await eventually { log.didStop })
    }

    @Test("a stream read to the end leaves its scope")
    func scopeLeftAtEnd() async throws {
        let client = try makeClient(transport: ChunkTransport(log: ProducerLog(), count: 2))
        let scope = RequestScope()
        var options = CallOptions()
        options.scope = scope
        for try await _ in try await client.send(streamEndpoint(), options: options).value {}
        #expect(await eventually { scope.inFlightCount == 0 })
    }

    @Test("a streamed result dropped unread stops the producer, even when the call keeps raw bodies")
    func droppedUnreadWithRawBody() async throws {
        let log = ProducerLog()
        let client = try makeClient(transport: ChunkTransport(log: log, count: 1000, size: 1000))
        var options = CallOptions()
        options.keepsRawBody = true
        options.setContextValue(10_000, for: ResponseStream.BufferLimit.self)
        options.tags = ["dropped"]
        _ = try await client.send(streamEndpoint(), options: options)
        #expect(await eventually { log.didStop })
        #expect(await eventually { client.cancel(.tag("dropped")).isEmpty })
    }

    @Test("a buffer limit set on a call that does not stream still gives the whole body")
    func bufferLimitIgnoredWithoutStream() async throws {
        let log = ProducerLog()
        let client = try makeClient(transport: ChunkTransport(log: log, count: 3, size: 10))
        var options = CallOptions()
        options.setContextValue(4000, for: ResponseStream.BufferLimit.self)
        let body = try await client.send(
            DynamicEndpoint<Data>(service: .users, method: .get, path: "/whole", as: Data.self),
            options: options
        )
        #expect(body.value.count == 30)
        #expect(log.limits.withLock { $0 } == [nil])
    }

    @Test("the logging stage counts the stream's bytes and chunks once the consumer has read them")
    func loggingCountsStream() async throws {
        var handler = InMemoryLogHandler()
        handler.logLevel = .debug
        let logger = Logger(label: "test") { _ in handler }
        let client = try makeClient(
            stages: [LoggingStage(logger: logger)],
            transport: ChunkTransport(log: ProducerLog(), count: 3, size: 5)
        )
        for try await _ in try await client.send(streamEndpoint()).value {}
        let lines = handler.entries.map { "\($0.message)" }
        #expect(lines.contains { $0.contains("streaming") })
        #expect(lines.contains { $0.contains("ended") && $0.contains("15 B in 3 chunks") })
        #expect(lines.contains { $0.hasPrefix("← stream starts: aaaaa") })
    }

    @Test("a transport that answers whole gives the body as one chunk")
    func wholeBodyAsOneChunk() async throws {
        let client = try makeClient(transport: MockTransport(.json(#"{"a":1}"#)))
        var chunks: [Data] = []
        for try await chunk in try await client.send(streamEndpoint()).value { chunks.append(chunk) }
        #expect(chunks == [Data(#"{"a":1}"#.utf8)])
    }
}

/// Says whether the response it reforms came as a stream, and counts its bytes.
private struct StreamBytes: Reformer {
    func reform(_ response: Response, context: ReformContext) -> (streamed: Bool, stream: ResponseStream) {
        (response.body.stream != nil, response.body.stream ?? ResponseStream(chunks: [response.bytes]))
    }
}

@Suite("Reformed streamed endpoints", .timeLimit(.minutes(1)))
struct ReformedStreamTests {
    @Test("a reformer over a streamed endpoint gets the stream, not the collected body")
    func reformerGetsStream() async throws {
        let client = try makeClient(transport: ChunkTransport(log: ProducerLog(), count: 3, size: 10))
        let (streamed, stream) = try await client.send(streamEndpoint().reformed(by: StreamBytes())).value
        #expect(streamed)
        var total = 0
        for try await chunk in stream { total += chunk.count }
        #expect(total == 30)
    }

    @Test("a reformer over a reformed streamed endpoint still gets the stream")
    func nestedReformerGetsStream() async throws {
        struct Passing: Reformer {
            func reform(_ response: Response, context: ReformContext) -> Response { response }
        }
        let client = try makeClient(transport: ChunkTransport(log: ProducerLog(), count: 2, size: 10))
        let (streamed, _) = try await client.send(streamEndpoint().reformed(by: Passing()).reformed(by: StreamBytes())).value
        #expect(streamed)
    }
}

import Foundation
import Switchyard
import Testing

@Suite("Decoded streams")
struct DecodedStreamTests {
    @Test("a Switchyard error from the chunks ends the stream as it is, after the values before it")
    func rethrowsSwitchyardErrors() async {
        let failure = SwitchyardError(code: .limitExceeded, message: "too large")
        let result = await readAll(ChunkFeed([Data("1\n2\n".utf8)], failure: failure).jsonLines(of: Int.self))
        #expect(result == StreamOutcome(values: [1, 2], error: .limitExceeded))
        #expect(result.message == "too large")
    }

    @Test("another error from the chunks becomes a transport error; a cancellation becomes cancelled")
    func wrapsOtherErrors() async {
        struct Reset: Error {}
        let reset = await readAll(ChunkFeed([Data("data: a\n\n".utf8)], failure: Reset()).serverSentEvents())
        #expect(reset == StreamOutcome(values: [ServerSentEvent(data: "a")], error: .transport))
        let cancelled = await readAll(ChunkFeed([Data("a\n".utf8)], failure: CancellationError()).lines())
        #expect(cancelled == StreamOutcome(values: ["a"], error: .cancelled))
    }

    @Test("after an error the stream stays ended")
    func staysEnded() async throws {
        var iterator = ChunkFeed("1\nx\n3\n").jsonLines(of: Int.self).makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        await #expect(throws: SwitchyardError.self) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test("a cancelled consumer ends the stream with cancelled before reading more chunks")
    func cancelledConsumer() async {
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        continuation.yield(Data("data: a\n\n".utf8))
        let consumer = Task {
            var seen: [String] = []
            do {
                for try await event in chunks.serverSentEvents() {
                    seen.append(event.data)
                    withUnsafeCurrentTask { $0?.cancel() }
                }
            } catch {
                return (seen, (error as? SwitchyardError)?.code)
            }
            return (seen, nil)
        }
        let (seen, code) = await consumer.value
        continuation.finish()
        #expect(seen == ["a"])
        #expect(code == .cancelled)
    }

    @Test("chunks are read only as values are asked for")
    func readsLazily() async throws {
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        var iterator = chunks.lines().makeAsyncIterator()
        continuation.yield(Data("one\ntw".utf8))
        #expect(try await iterator.next() == "one")
        continuation.yield(Data("o\n".utf8))
        #expect(try await iterator.next() == "two")
        continuation.finish()
        #expect(try await iterator.next() == nil)
    }
}

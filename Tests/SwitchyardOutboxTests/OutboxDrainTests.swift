import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@testable import SwitchyardOutbox

@Suite("Outbox draining")
struct OutboxDrainTests {
    @Test("calls of one queue are sent in the order they were enqueued")
    func fifoPerQueue() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        for number in 1...5 { try await outbox.enqueue(try OutboxFixture.order("order-\(number)")) }
        try await outbox.drain()
        #expect(fixture.transport.requests.map(OutboxFixture.orderName) == (1...5).map { "order-\($0)" })
        #expect(try await outbox.counts().delivered == 5)
        await outbox.close()
    }

    @Test("every attempt of a call carries the Idempotency-Key fixed at enqueue")
    func idempotencyKeyStableAcrossRetries() async throws {
        let attempts = Counter()
        let fixture = try OutboxFixture { _, _ in
            attempts.next() < 3
                ? Response(status: .serviceUnavailable, headerFields: [:], body: Data())
                : Response(status: .created, headerFields: [:], body: Data(#"{"id":7}"#.utf8))
        }
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        let entry = try await outbox.enqueue(try OutboxFixture.order("order-1"))
        try await outbox.drain()
        let keys = fixture.transport.requests.map { $0.headerFields[Outbox.idempotencyKeyField] }
        #expect(keys.count == 4)
        #expect(Set(keys) == [entry.idempotencyKey])
        let finished = try #require(try await outbox.entry(id: entry.id))
        #expect(finished.state == .delivered)
        #expect(finished.status == 201)
        #expect(finished.body == Data(#"{"id":7}"#.utf8))
        await outbox.close()
    }

    @Test("a 4xx other than 408 and 429 makes a dead letter holding the typed error")
    func clientErrorIsDeadLetter() async throws {
        let fixture = try OutboxFixture { _, _ in Response(status: .unprocessableContent, headerFields: [:], body: Data()) }
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        let entry = try await outbox.enqueue(try OutboxFixture.order("order-1"))
        try await outbox.drain()
        let dead = try #require(try await outbox.entry(id: entry.id))
        #expect(dead.state == .deadLetter)
        #expect(dead.status == 422)
        #expect(dead.error?.code == .httpStatus)
        #expect(fixture.transport.requestCount == 1)
        await outbox.close()
    }
}

/// A thread-safe counter of calls.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    /// The count before this call.
    func next() -> Int {
        lock.withLock {
            defer { count += 1 }
            return count
        }
    }
}

@Suite("Outbox retries and queues")
struct OutboxRetryTests {
    @Test("408 and 429 are tried again, not dead letters", arguments: [408, 429])
    func retriedStatuses(status: Int) async throws {
        let attempts = Counter()
        let fixture = try OutboxFixture { _, _ in
            attempts.next() == 0
                ? Response(status: HTTPResponse.Status(code: status), headerFields: [:], body: Data())
                : Response(status: .created, headerFields: [:], body: Data())
        }
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        let entry = try await outbox.enqueue(try OutboxFixture.order("order-1"))
        try await outbox.drain()
        #expect(try await outbox.entry(id: entry.id)?.state == .delivered)
        #expect(try await outbox.entry(id: entry.id)?.attempts == 2)
        await outbox.close()
    }

    @Test("a head failing transiently blocks its own queue only")
    func headOfLineBlockingPerQueue() async throws {
        let fixture = try OutboxFixture { request, _ in
            OutboxFixture.orderName(request) == "a-1"
                ? Response(status: .serviceUnavailable, headerFields: [:], body: Data())
                : Response(status: .created, headerFields: [:], body: Data())
        }
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        let outcomes = await outbox.outcomes()
        try await outbox.enqueue(try OutboxFixture.order("a-1", queue: "a"))
        try await outbox.enqueue(try OutboxFixture.order("a-2", queue: "a"))
        try await outbox.enqueue(try OutboxFixture.order("b-1", queue: "b"))
        try await outbox.enqueue(try OutboxFixture.order("b-2", queue: "b"))
        await outbox.start()
        var delivered: [String] = []
        for await entry in outcomes {
            delivered.append(contentsOf: entry.tags.map(\.rawValue))
            if delivered.count == 2 { break }
        }
        await outbox.stop()
        #expect(delivered == ["b-1", "b-2"])
        let sent = Set(fixture.transport.requests.map(OutboxFixture.orderName))
        #expect(sent.contains("a-1"))
        #expect(!sent.contains("a-2"))
        #expect(try await outbox.counts().pending == 2)
        await outbox.close()
    }

    @Test("a call older than the maximum age becomes an expired dead letter")
    func maxAge() async throws {
        let clock = TestClock()
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        var configuration = OutboxFixture.quick(maxAge: .seconds(60))
        configuration.now = { clock.now }
        let outbox = try await fixture.open(configuration)
        let entry = try await outbox.enqueue(try OutboxFixture.order("order-1"))
        clock.advance(by: 61)
        try await outbox.drain()
        let dead = try #require(try await outbox.entry(id: entry.id))
        #expect(dead.state == .deadLetter)
        #expect(dead.error?.code == .expired)
        #expect(fixture.transport.requestCount == 0)
        await outbox.close()
    }

    @Test("the pipeline runs when the call is sent: the token is the one current then")
    func pipelineRunsAtDrainTime() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        try await outbox.enqueue(try OutboxFixture.order("order-1"))
        fixture.token.value = "refreshed"
        try await outbox.drain()
        #expect(fixture.transport.requests.first?.headerFields[.authorization] == "Bearer refreshed")
        await outbox.close()
        let stored = try Data(contentsOf: fixture.file)
        #expect(stored.range(of: Data("Bearer".utf8)) == nil)
    }

    @Test("a call carrying credentials is refused at enqueue")
    func credentialsRefused() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        var call = try OutboxFixture.order("order-1")
        call.endpoint.headerFields[.authorization] = "Bearer secret"
        await #expect(throws: SwitchyardError.self) { try await outbox.enqueue(call) }
        do {
            try await outbox.enqueue(call)
        } catch {
            #expect(error.code == .invalidRequest)
            #expect(!error.message.contains("secret"))
        }
        #expect(try await outbox.counts() == OutboxCounts())
        await outbox.close()
    }

    @Test("outcomes arrive as entries finish, counts after every change")
    func outcomesAndCounts() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        let counts = await outbox.countUpdates()
        var iterator = counts.makeAsyncIterator()
        #expect(await iterator.next() == OutboxCounts())
        try await outbox.enqueue(try OutboxFixture.order("order-1"))
        #expect(await iterator.next()?.pending == 1)
        try await outbox.drain()
        var last = OutboxCounts()
        while last.delivered < 1, let next = await iterator.next() { last = next }
        #expect(last.delivered == 1)
        #expect(last.pending == 0)
        await outbox.close()
    }
}

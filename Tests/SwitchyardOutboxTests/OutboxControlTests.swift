import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@testable import SwitchyardOutbox

@Suite("Outbox cancel, remove and sessions")
struct OutboxControlTests {
    @Test("cancel by id and by tag: the calls are never sent and end cancelled")
    func cancelByIDAndTag() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        let first = try await outbox.enqueue(try OutboxFixture.order("order-1"))
        var tagged = try OutboxFixture.order("order-2")
        tagged.tags.insert("basket")
        try await outbox.enqueue(tagged)
        try await outbox.enqueue(try OutboxFixture.order("order-3"))
        #expect(try await outbox.cancel(id: first.id))
        #expect(try await outbox.cancel(tagged: "basket") == 1)
        #expect(try await outbox.cancel(id: first.id) == false)
        try await outbox.drain()
        #expect(fixture.transport.requests.map(OutboxFixture.orderName) == ["order-3"])
        #expect(try await outbox.entries(.cancelled).count == 2)
        await outbox.close()
    }

    @Test("remove by id and by tag deletes entries whatever their state")
    func removeByIDAndTag() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        let first = try await outbox.enqueue(try OutboxFixture.order("order-1"))
        try await outbox.drain()
        // Stopped, so that order-2 stays pending until it is removed.
        await outbox.stop()
        try await outbox.enqueue(try OutboxFixture.order("order-2"))
        #expect(try await outbox.remove(id: first.id))
        #expect(try await outbox.remove(tagged: "order-2") == 1)
        #expect(try await outbox.entries().isEmpty)
        try await outbox.drain()
        #expect(fixture.transport.requestCount == 1)
        await outbox.close()
    }

    @Test("endSession drops the account's pending calls: no other session sends them")
    func endSessionDrops() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        try await outbox.enqueue(try OutboxFixture.order("ann-1", account: "ann"))
        try await outbox.enqueue(try OutboxFixture.order("bob-1", account: "bob"))
        try await outbox.endSession(account: "ann")
        fixture.token.value = "bob"
        try await outbox.drain()
        #expect(fixture.transport.requests.map(OutboxFixture.orderName) == ["bob-1"])
        #expect(try await outbox.entries(.cancelled).flatMap(\.tags) == ["ann-1"])
        await outbox.close()
    }

    @Test("endSession with parking holds the calls until the same account signs in again")
    func endSessionParks() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        try await outbox.enqueue(try OutboxFixture.order("ann-1", account: "ann"))
        try await outbox.endSession(account: "ann", parking: true)
        fixture.token.value = "bob"
        try await outbox.drain()
        #expect(fixture.transport.requestCount == 0)
        #expect(try await outbox.counts().parked == 1)
        fixture.token.value = "ann"
        try await outbox.beginSession(account: "ann")
        try await outbox.drain()
        #expect(fixture.transport.requests.map { $0.headerFields[.authorization] } == ["Bearer ann"])
        #expect(fixture.transport.contexts.first?.account == "ann")
        await outbox.close()
    }

    @Test("a call enqueued before a restart is sent after it with the key fixed at enqueue")
    func keyStableAcrossRestarts() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let before = try await fixture.open()
        let entry = try await before.enqueue(try OutboxFixture.order("order-1"))
        await before.close()
        let after = try await fixture.open()
        #expect(try await after.entry(id: entry.id)?.state == .pending)
        try await after.drain()
        #expect(fixture.transport.requests.map { $0.headerFields[Outbox.idempotencyKeyField] } == [entry.idempotencyKey])
        await after.close()
    }

    @Test("the store's file is 0600 in a 0700 directory")
    func ownerOnlyFiles() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        try await outbox.enqueue(try OutboxFixture.order("order-1"))
        let file = try FileManager.default.attributesOfItem(atPath: fixture.file.path)
        let directory = try FileManager.default.attributesOfItem(atPath: fixture.directory.path)
        #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((directory[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: fixture.file.path + suffix) {
            let journal = try FileManager.default.attributesOfItem(atPath: fixture.file.path + suffix)
            #expect((journal[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
        await outbox.close()
    }

    @Test("with a sealing, the stored call is not readable in the file")
    func sealedAtRest() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let flip: @Sendable (Data) throws -> Data = { Data($0.map { $0 ^ 0x5A }) }
        var configuration = OutboxFixture.quick()
        configuration.sealing = CacheSealing(seal: flip, open: flip)
        let outbox = try await fixture.open(configuration)
        try await outbox.enqueue(try OutboxFixture.order("order-secret-name"))
        await outbox.close()
        let stored =
            try Data(contentsOf: fixture.file) + ((try? Data(contentsOf: URL(fileURLWithPath: fixture.file.path + "-wal"))) ?? Data())
        #expect(stored.range(of: Data("/orders".utf8)) == nil)
        let reopened = try await fixture.open(configuration)
        try await reopened.drain()
        #expect(fixture.transport.requests.map(OutboxFixture.orderName) == ["order-secret-name"])
        await reopened.close()
    }
}

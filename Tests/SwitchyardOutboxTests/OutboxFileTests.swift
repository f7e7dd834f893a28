import Foundation
import Switchyard
import Testing

@testable import SwitchyardOutbox

@Suite("Outbox uploads")
struct OutboxFileTests {
    func upload(_ fixture: OutboxFixture, contents: String) throws -> (OutboxCall, URL) {
        let url = fixture.directory.appendingPathComponent("photo-\(UUID().uuidString).bin")
        try FileManager.default.createDirectory(at: fixture.directory, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
        return (OutboxCall(.shop, .put, "/photos/1", body: try .file(url), queue: "photos"), url)
    }

    @Test("an unchanged file is uploaded whole")
    func unchangedFileUploads() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        let (call, _) = try upload(fixture, contents: "the photo")
        let entry = try await outbox.enqueue(call)
        try await outbox.drain()
        #expect(try await outbox.entry(id: entry.id)?.state == .delivered)
        #expect(fixture.transport.requestCount == 1)
        await outbox.close()
    }

    @Test("a file gone by the time its call drains makes a dead letter, nothing is sent")
    func goneFileIsDeadLetter() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        let (call, url) = try upload(fixture, contents: "the photo")
        let entry = try await outbox.enqueue(call)
        try FileManager.default.removeItem(at: url)
        try await outbox.drain()
        let dead = try #require(try await outbox.entry(id: entry.id))
        #expect(dead.state == .deadLetter)
        #expect(dead.error?.code == .fileChanged)
        #expect(fixture.transport.requestCount == 0)
        await outbox.close()
    }

    @Test("a file changed after it was queued makes a dead letter, nothing is sent")
    func changedFileIsDeadLetter() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        let (call, url) = try upload(fixture, contents: "the photo")
        let entry = try await outbox.enqueue(call)
        try Data("the phot0".utf8).write(to: url)
        try await outbox.drain()
        let dead = try #require(try await outbox.entry(id: entry.id))
        #expect(dead.error?.code == .fileChanged)
        #expect(fixture.transport.requestCount == 0)
        await outbox.close()
    }
}

@Suite("Outbox store failures")
struct OutboxStoreTests {
    @Test("a file that is not a database gives storeCorrupt and is left as it is")
    func malformedFile() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        try FileManager.default.createDirectory(at: fixture.directory, withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: fixture.file)
        await #expect(throws: SwitchyardError.self) { _ = try await fixture.open() }
        do {
            _ = try await fixture.open()
        } catch {
            #expect(error.code == .storeCorrupt)
        }
        #expect(try Data(contentsOf: fixture.file) == garbage)
    }

    @Test("a truncated store gives storeCorrupt and is left as it is")
    func truncatedFile() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        for number in 1...200 { try await outbox.enqueue(try OutboxFixture.order("order-\(number)-" + String(repeating: "x", count: 200))) }
        await outbox.close()
        let whole = try Data(contentsOf: fixture.file)
        let truncated = whole.prefix(whole.count / 2)
        try truncated.write(to: fixture.file)
        do {
            let reopened = try await fixture.open()
            // Opening may succeed when the damage lies past the pages SQLite checks; reading must not.
            _ = try await reopened.entries()
            Issue.record("a truncated store was read without an error")
            await reopened.close()
        } catch {
            #expect(error.code == .storeCorrupt)
        }
        #expect(try Data(contentsOf: fixture.file) == truncated)
    }

    @Test("a store written by a newer version gives storeVersion")
    func newerVersion() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try await fixture.open()
        try await outbox.enqueue(try OutboxFixture.order("order-1"))
        try await outbox.store.run("PRAGMA user_version = 99")
        await outbox.close()
        do {
            _ = try await fixture.open()
            Issue.record("a newer store was opened")
        } catch {
            #expect(error.code == .storeVersion)
        }
    }

    @Test("a full disk gives storeFull; what was stored before stays")
    func fullDisk() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        var configuration = OutboxFixture.quick()
        configuration.maxPageCount = 12
        let outbox = try await fixture.open(configuration)
        var stored = 0
        var failure: SwitchyardError?
        while failure == nil, stored < 1000 {
            do {
                try await outbox.enqueue(try OutboxFixture.order("order-\(stored)-" + String(repeating: "x", count: 300)))
                stored += 1
            } catch {
                failure = error
            }
        }
        #expect(failure?.code == .storeFull)
        #expect(stored > 0)
        await outbox.close()
        let reopened = try await fixture.open()
        #expect(try await reopened.counts().pending == stored)
        await reopened.close()
    }
}

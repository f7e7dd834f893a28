import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Streamed bodies")
struct StreamedBodyTests {
    static func temporaryFile(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-stream-\(UUID().uuidString)")
        try data.write(to: url)
        return url
    }

    static func collect(_ body: StreamedBody, chunkSize: Int) async throws -> (Data, [Int]) {
        var all = Data()
        var sizes: [Int] = []
        for try await chunk in body.chunks(size: chunkSize) {
            all += chunk
            sizes.append(chunk.count)
        }
        return (all, sizes)
    }

    @Test("segments are read in order, in chunks no larger than asked, and again from the start")
    func readsSegments() async throws {
        let content = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let file = try Self.temporaryFile(content)
        defer { try? FileManager.default.removeItem(at: file) }
        let body = StreamedBody(segments: [
            .bytes(Data("ab".utf8)), .bytes(Data("c".utf8)), .file(file, offset: 100, length: 5_000), .bytes(Data()),
            .bytes(Data("z".utf8)),
        ])
        #expect(body.segments.count == 3)  // adjacent bytes joined, empty dropped
        #expect(body.length == 5_004)
        let expected = Data("abc".utf8) + content[100..<5_100] + Data("z".utf8)
        let (first, sizes) = try await Self.collect(body, chunkSize: 1_024)
        #expect(first == expected)
        #expect(sizes.allSatisfy { $0 <= 1_024 })
        let (second, _) = try await Self.collect(body, chunkSize: 333)
        #expect(second == expected)
        #expect(body.wholeFile == nil)
        #expect(try StreamedBody.file(file).wholeFile == file)
    }

    @Test("a missing file, a directory and a file shorter than declared are typed encoding errors")
    func failures() async throws {
        #expect { _ = try StreamedBody.file(URL(fileURLWithPath: "/nonexistent/x.bin")) } throws: {
            ($0 as? SwitchyardError)?.code == .encoding
        }
        #expect { _ = try StreamedBody.file(FileManager.default.temporaryDirectory) } throws: {
            ($0 as? SwitchyardError)?.code == .encoding
        }
        let file = try Self.temporaryFile(Data(count: 100))
        defer { try? FileManager.default.removeItem(at: file) }
        let body = StreamedBody(segments: [.file(file, offset: 0, length: 1_000)])
        await #expect { _ = try await Self.collect(body, chunkSize: 64) } throws: { error in
            (error as? SwitchyardError)?.code == .encoding && (error as? SwitchyardError)?.message.contains("ended at byte 100") == true
        }
    }

    @Test("write(to:) stages the body in a file; the identity names files and ranges")
    func writesAndIdentifies() throws {
        let file = try Self.temporaryFile(Data("0123456789".utf8))
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-stream-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: copy)
        }
        let body = StreamedBody(segments: [.bytes(Data("<".utf8)), .file(file, offset: 2, length: 3), .bytes(Data(">".utf8))])
        try body.write(to: copy)
        #expect(try Data(contentsOf: copy) == Data("<234>".utf8))
        #expect(body.identity.contains("f\(file.path)@2+3"))
        #expect(body.identity != StreamedBody(segments: [.file(file, offset: 2, length: 4)]).identity)
    }

    @Test("a streamed request body reaches the transport unread; parameters go to the query and common parameters stay out of it")
    func throughTheClient() async throws {
        let file = try Self.temporaryFile(Data(repeating: 7, count: 4_096))
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = MockTransport(.status(.ok))
        let stage = CommonParametersStage([.fixed("appid", "demo")])
        let client = try makeClient(stages: [stage], defaults: ServiceDefaults(parameterEncoding: .json), transport: transport)
        _ = try await client.send(.users, .post, "/upload", parameters: ["kind": "raw"], body: try .file(file, contentType: "image/png"))
        let sent = try #require(transport.requests.first)
        #expect(sent.body?.bytes == nil && sent.body?.stream?.length == 4_096)
        #expect(sent.headerFields[.contentType] == "image/png")
        #expect(sent.query?.contains("kind=raw") == true && sent.query?.contains("appid=demo") == true)
    }

    @Test("writing a body to a file creates it private to the user (0600), even over a file readable by others")
    func writeCreatesPrivateFile() throws {
        useTheUsualUmask()
        let source = try Self.temporaryFile(Data("0123456789".utf8))
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-upload-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: source)
            try? FileManager.default.removeItem(at: destination)
        }
        try Data("older, longer contents".utf8).write(to: destination)
        #expect(try permissions(of: destination) == 0o644)
        try StreamedBody(segments: [.bytes(Data("ab".utf8)), .file(source, offset: 2, length: 3)]).write(to: destination)
        #expect(try Data(contentsOf: destination) == Data("ab234".utf8))
        #expect(try permissions(of: destination) == 0o600)
    }

    @Test("a body that cannot be written whole leaves no file behind")
    func failedWriteLeavesNothing() throws {
        let source = try Self.temporaryFile(Data("short".utf8))
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-upload-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: source)
            try? FileManager.default.removeItem(at: destination)
        }
        #expect(throws: SwitchyardError.self) {
            try StreamedBody(segments: [.bytes(Data("ab".utf8)), .file(source, offset: 0, length: 100)]).write(to: destination)
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }
}

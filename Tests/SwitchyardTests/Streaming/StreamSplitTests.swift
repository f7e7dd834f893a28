import Foundation
import Switchyard
import Testing

/// However the bytes are cut into chunks, a stream decodes to the same values and the same error.
@Suite("Decoded streams, split anywhere")
struct StreamSplitTests {
    static let rs = "\u{1E}"

    static let eventStreams: [String] = [
        "\u{FEFF}: test stream\r\n\r\ndata: first event\r\nid: 1\r\n\r\ndata:second event\rid\r\rdata:  third event\n\n",
        "data: YHOO\ndata: +2\ndata: 10\n\nevent: add\ndata: 73857293\nretry: 300\n\ndata\n\ndata\ndata\n\ndata:",
        "data: é ü 日本\r\n\r\n\r\r\n\n:\rid: 5\u{0}\rdata: x\r\n\nevent: e\ndata:  two\n\n",
    ]
    static let jsonLineStreams: [String] = [
        "{\"a\": 1}\r\n\r\n{\"a\": 2}\n  \n{\"a\": 3}",
        "{\"a\": 1}\n{\"a\": \"é\"}\n{\"a\": 3}\n",
    ]
    static let jsonSequenceStreams: [String] = [
        "\(rs){\"a\": 1}\n\(rs){\n \"a\": 2\n}\n\(rs){\"a\": 3\(rs){\"a\": \"}{\\\"\"}\n\(rs)4\n\(rs)5",
        "x\(rs)\(rs)[1,\n2]\ny\n\(rs)\"\\u0041\"\n",
    ]

    struct Value: Decodable, Equatable, Sendable {
        let a: AnyJSON
    }

    /// Every cut into two pieces, at each byte boundary.
    static func everySingleCut(of text: String) -> [[Int]] {
        (1..<text.utf8.count).map { [$0] }
    }

    /// Seeded random cuts into up to a dozen pieces, including one-byte pieces.
    static func randomCuts(of text: String, seed: UInt64, count: Int = 200) -> [[Int]] {
        var generator = SeededGenerator(state: seed)
        let length = text.utf8.count
        return (0..<count).map { _ in
            (0..<Int.random(in: 1...12, using: &generator)).map { _ in Int.random(in: 1..<length, using: &generator) }
        }
    }

    /// Every cut into two pieces, then seeded random multi-cuts, decode as the whole stream does.
    static func expectSame<Element: Equatable>(
        _ text: String,
        seed: UInt64,
        decode: (ChunkFeed) -> some AsyncSequence<Element, SwitchyardError>
    ) async {
        let whole = await readAll(decode(ChunkFeed(text)))
        let oneByteChunks = await readAll(decode(ChunkFeed(text, cuts: Array(0..<text.utf8.count))))
        #expect(oneByteChunks == whole)
        for cuts in everySingleCut(of: text) + randomCuts(of: text, seed: seed) {
            let split = await readAll(decode(ChunkFeed(text, cuts: cuts)))
            #expect(split == whole, "cut at \(cuts)")
        }
    }

    @Test("event streams", arguments: eventStreams.indices)
    func events(_ index: Int) async {
        let text = Self.eventStreams[index]
        await Self.expectSame(text, seed: UInt64(index) + 1) { $0.serverSentEvents() }
        await Self.expectSame(text, seed: UInt64(index) + 11) { $0.serverSentEvents(maximumSize: 12) }
    }

    @Test("the whole event streams decode as the standard says")
    func eventsWhole() async {
        let first = await readAll(ChunkFeed(Self.eventStreams[0]).serverSentEvents())
        #expect(first.values.map(\.data) == ["first event", "second event", " third event"])
        #expect(first.values.map(\.id) == ["1", nil, nil])
        let second = await readAll(ChunkFeed(Self.eventStreams[1]).serverSentEvents())
        #expect(second.values.map(\.data) == ["YHOO\n+2\n10", "73857293", "", "\n"])
        #expect(second.values.map(\.retry) == [nil, .milliseconds(300), .milliseconds(300), .milliseconds(300)])
        let third = await readAll(ChunkFeed(Self.eventStreams[2]).serverSentEvents())
        #expect(third.values == [ServerSentEvent(data: "é ü 日本"), ServerSentEvent(data: "x"), ServerSentEvent(type: "e", data: " two")])
    }

    @Test("JSON Lines streams", arguments: jsonLineStreams.indices)
    func jsonLines(_ index: Int) async {
        let text = Self.jsonLineStreams[index]
        let whole = await readAll(ChunkFeed(text).jsonLines(of: Value.self))
        #expect(whole.values.count == 3 && whole.error == nil)
        await Self.expectSame(text, seed: UInt64(index) + 21) { $0.jsonLines(of: Value.self) }
        await Self.expectSame(text, seed: UInt64(index) + 31) { $0.lines() }
        await Self.expectSame(text, seed: UInt64(index) + 41) { $0.jsonLines(of: Value.self, maximumSize: 9) }
    }

    @Test("JSON text sequences", arguments: jsonSequenceStreams.indices)
    func jsonSequences(_ index: Int) async {
        let text = Self.jsonSequenceStreams[index]
        let whole = await readAll(ChunkFeed(text).jsonSequence(of: AnyJSON.self))
        #expect(whole.error == nil)
        #expect(whole.values.count == [4, 2][index])
        await Self.expectSame(text, seed: UInt64(index) + 51) { $0.jsonSequence(of: AnyJSON.self) }
        await Self.expectSame(text, seed: UInt64(index) + 61) { $0.jsonSequence(of: AnyJSON.self, maximumSize: 8) }
    }

    @Test("a stream that fails mid-way fails the same way, whatever the cuts")
    func failures() async {
        let text = "data: a\n\ndata: " + String(repeating: "b", count: 30) + "\n\n"
        await Self.expectSame(text, seed: 71) { $0.serverSentEvents(maximumSize: 20) }
        await Self.expectSame("1\n2\nthree\n4\n", seed: 72) { $0.jsonLines(of: Int.self) }
    }
}

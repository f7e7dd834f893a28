import Foundation
import Switchyard
import Testing

/// The event parser reads each chunk in place and carries only an unfinished line over: the edges
/// of that (lines across chunks, CR/LF across chunks, the data kept from a chunk that has gone) and
/// of the strings it reuses (the last event ID, the last type).
@Suite("Server-Sent Events read in place")
struct ServerSentEventChunkTests {
    static func events(_ pieces: [String], maximumSize: Int = 1 << 20) async -> StreamOutcome<ServerSentEvent> {
        await readAll(ChunkFeed(pieces.map { Data($0.utf8) }).serverSentEvents(maximumSize: maximumSize))
    }

    @Test("a line longer than a chunk is carried over chunk after chunk, and is the same line")
    func lineLongerThanChunk() async {
        let long = String(repeating: "0123456789", count: 30)
        let text = "id: \(long)\nevent: \(long)\ndata: \(long)\ndata: \(long)\n\n"
        let pieces = stride(from: 0, to: text.utf8.count, by: 7).map { start in
            String(decoding: Array(text.utf8)[start..<min(start + 7, text.utf8.count)], as: UTF8.self)
        }
        let result = await Self.events(pieces)
        #expect(result == StreamOutcome(values: [ServerSentEvent(type: long, data: "\(long)\n\(long)", id: long)]))
    }

    @Test("a field name cut by a chunk's end is still that field")
    func fieldNameAcrossChunks() async {
        let result = await Self.events(["da", "ta: a\nev", "ent: e\ni", "d: 1\nret", "ry: 20\n", "\n"])
        #expect(result == StreamOutcome(values: [ServerSentEvent(type: "e", data: "a", id: "1", retry: .milliseconds(20))]))
    }

    @Test("a CR ending a chunk is one line end with a LF starting the next, even after an empty chunk")
    func carriageReturnAcrossChunks() async {
        let expected = StreamOutcome(values: [ServerSentEvent(data: "a\nb")])
        #expect(await Self.events(["data: a\r", "", "\ndata: b\r", "\n", "\r", "", "\n"]) == expected)
        // A CR at a chunk's end before a chunk not starting with LF ends the line alone.
        #expect(await Self.events(["data: a\r", "data: b\r", "\r"]) == expected)
        // The LF after a CR is skipped once: a second LF is a blank line.
        #expect(await Self.events(["data: a\r", "\n\n", "data: b\n\n"]).values.map(\.data) == ["a", "b"])
    }

    @Test("a data line kept in its chunk joins the data lines of the next chunk")
    func dataAcrossChunks() async {
        #expect(await Self.events(["data: a\n", "data: b\n\n"]) == StreamOutcome(values: [ServerSentEvent(data: "a\nb")]))
        #expect(await Self.events(["data: a\n", "\n"]) == StreamOutcome(values: [ServerSentEvent(data: "a")]))
        #expect(await Self.events(["data: a\nda", "ta: b\n", "\n"]) == StreamOutcome(values: [ServerSentEvent(data: "a\nb")]))
        #expect(await Self.events(["data\n", "data\n\n"]) == StreamOutcome(values: [ServerSentEvent(data: "\n")]))
    }

    @Test("many events in one chunk come one by one, and the next chunk goes on after them")
    func manyEventsInOneChunk() async {
        let text = (0..<100).map { "id: \($0)\ndata: \($0)\n\n" }.joined()
        let result = await Self.events([text, "data: last\n\n"])
        #expect(result.values.map(\.data) == (0..<100).map(String.init) + ["last"])
        #expect(result.values.map(\.id) == (0..<100).map(String.init) + ["99"])
    }

    @Test("an id repeated keeps the id; a changed one replaces it, an empty one resets it, a NUL one is ignored")
    func idReuse() async {
        let text =
            "id: 7\ndata: a\n\nid: 7\ndata: b\n\nid: 8\ndata: c\n\nid: 7\ndata: d\n\nid:\ndata: e\n\n"
            + "id: 7\ndata: f\n\nid: 7\u{0}\ndata: g\n\nid: 77\ndata: h\n\nid: 7\ndata: i\n\nid\ndata: j\n\n"
        let result = await Self.events([text])
        #expect(result.values.map(\.id) == ["7", "7", "8", "7", nil, "7", "7", "77", "7", nil])
        // Cut anywhere, the same.
        for cut in 1..<text.utf8.count {
            let bytes = Array(text.utf8)
            let split = await readAll(ChunkFeed(bytes, cuts: [cut]).serverSentEvents())
            #expect(split == result, "cut at \(cut)")
        }
    }

    @Test("a type repeated keeps the type; another replaces it; an empty or missing one is message")
    func typeReuse() async {
        let text =
            "event: tick\ndata: 1\n\nevent: tick\ndata: 2\n\nevent:\ndata: 3\n\nevent: tick\ndata: 4\n\n"
            + "event: tock\ndata: 5\n\ndata: 6\n\nevent: tick\n\nevent: tock\nevent: tick\ndata: 7\n\n"
        let result = await Self.events([text])
        #expect(result.values.map(\.type) == ["tick", "tick", "message", "tick", "tock", "message", "tick"])
    }

    @Test("a byte order mark cut by a chunk's end is still skipped at the start")
    func byteOrderMarkAcrossChunks() async {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("data: a\n\n".utf8)
        for cut in 1...3 {
            let result = await readAll(ChunkFeed(bytes, cuts: [cut]).serverSentEvents())
            #expect(result == StreamOutcome(values: [ServerSentEvent(data: "a")]), "cut at \(cut)")
        }
    }

    @Test("a line carried over past the limit ends the stream with limitExceeded, after the events before it")
    func carriedLineLimit() async {
        let result = await Self.events(["data: a\n\ndata: 0123", "456789", "0123456789\n\n"], maximumSize: 16)
        #expect(result == StreamOutcome(values: [ServerSentEvent(data: "a")], error: .limitExceeded))
        #expect(result.message?.contains("a line of the event stream") == true)
    }

    @Test("data gathered over chunks past the limit ends the stream with limitExceeded")
    func gatheredDataLimit() async {
        let result = await Self.events(["data: 0123456789\n", "data: 0123456789\n", "\n"], maximumSize: 20)
        #expect(result == StreamOutcome(values: [], error: .limitExceeded))
        #expect(result.message?.contains("the data of an event") == true)
    }

    @Test("a name that only starts like a known field is another field, ignored; a bare name is an empty value")
    func namesStartingLikeFields() async {
        let text =
            "id: 1\nevent: e\nretry: 5\n"
            + "dat: x\ndatax: x\ndata : x\nidx: 2\nid : 2\neventful: f\nevent : f\nretryx: 9\nretry : 9\nd\ne\n:data: x\n"
            + "data: a\ndata\nevent\n\nid\ndata: b\n\n"
        let expected = StreamOutcome(values: [
            ServerSentEvent(type: "message", data: "a\n", id: "1", retry: .milliseconds(5)),
            ServerSentEvent(data: "b", retry: .milliseconds(5)),
        ])
        #expect(await Self.events([text]) == expected)
        // Cut anywhere, the same.
        for cut in 1..<text.utf8.count {
            #expect(await readAll(ChunkFeed(Array(text.utf8), cuts: [cut]).serverSentEvents()) == expected, "cut at \(cut)")
        }
    }

    @Test("the events of one chunk, read one at a time, are followed by a later line's error")
    func eventsOfAChunkBeforeItsError() async {
        let events = (0..<200).map { "id: \($0)\ndata: \($0)\n\n" }.joined()
        let result = await Self.events([events + "data: 0123456789012345678901234567890123456789\n\n"], maximumSize: 32)
        #expect(result.values.map(\.data) == (0..<200).map(String.init))
        #expect(result.error == .limitExceeded)
    }
}

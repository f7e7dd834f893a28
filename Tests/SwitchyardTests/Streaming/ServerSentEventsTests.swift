import Foundation
import Switchyard
import Testing

@Suite("Server-Sent Events")
struct ServerSentEventsTests {
    static func events(_ text: String, cuts: [Int] = [], maximumSize: Int = 1 << 20) async -> StreamOutcome<ServerSentEvent> {
        await readAll(ChunkFeed(text, cuts: cuts).serverSentEvents(maximumSize: maximumSize))
    }

    @Test("the standard's stock example: three data lines are one event, joined with LF")
    func stockQuote() async {
        let result = await Self.events("data: YHOO\ndata: +2\ndata: 10\n\n")
        #expect(result == StreamOutcome(values: [ServerSentEvent(data: "YHOO\n+2\n10")]))
    }

    @Test("the standard's four blocks: a comment fires nothing, ids set and reset, the unterminated block is dropped")
    func testStream() async {
        let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n"
        let result = await Self.events(stream)
        #expect(
            result
                == StreamOutcome(values: [
                    ServerSentEvent(data: "first event", id: "1"),
                    ServerSentEvent(data: "second event", id: nil),
                ])
        )
        let ended = await Self.events(stream + "\n")
        #expect(ended.values.last == ServerSentEvent(data: " third event", id: nil))
    }

    @Test("the standard's empty data: 'data' alone is \"\", two of them are \"\\n\", a block without a blank line is dropped")
    func emptyData() async {
        let result = await Self.events("data\n\ndata\ndata\n\ndata:")
        #expect(result == StreamOutcome(values: [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")]))
    }

    @Test("the standard's two identical events: one space after the colon is ignored")
    func spaceAfterColon() async {
        let result = await Self.events("data:test\n\ndata: test\n\n")
        #expect(result == StreamOutcome(values: [ServerSentEvent(data: "test"), ServerSentEvent(data: "test")]))
    }

    @Test("the standard's introduction: three messages, the second over two lines")
    func introduction() async {
        let stream = """
            data: This is the first message.

            data: This is the second message, it
            data: has two lines.

            data: This is the third message.


            """
        let result = await Self.events(stream)
        #expect(
            result.values.map(\.data) == [
                "This is the first message.", "This is the second message, it\nhas two lines.", "This is the third message.",
            ]
        )
    }

    @Test("the standard's event types: add and remove; the type does not outlive its event")
    func eventTypes() async {
        let result = await Self.events(
            "event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\nevent: add\ndata: 113411\n\ndata: plain\n\n"
        )
        #expect(result.values.map(\.type) == ["add", "remove", "add", "message"])
        #expect(result.values.map(\.data) == ["73857293", "2153", "113411", "plain"])
    }

    @Test("CR, LF and CRLF all end lines, and a CR that ends one chunk with a LF starting the next is one line end")
    func lineEnds() async {
        let lf = await Self.events("data: a\ndata: b\n\n")
        let cr = await Self.events("data: a\rdata: b\r\r")
        let crlf = await Self.events("data: a\r\ndata: b\r\n\r\n")
        let split = await readAll(
            ChunkFeed([Data("data: a\r".utf8), Data("\ndata: b\r".utf8), Data("\n\r".utf8), Data("\n".utf8)]).serverSentEvents()
        )
        #expect(lf == StreamOutcome(values: [ServerSentEvent(data: "a\nb")]))
        #expect(cr == lf)
        #expect(crlf == lf)
        #expect(split == lf)
    }

    @Test("a byte order mark is skipped at the very start only")
    func byteOrderMark() async {
        let first = await Self.events("\u{FEFF}data: a\n\n")
        #expect(first == StreamOutcome(values: [ServerSentEvent(data: "a")]))
        // Later, it is part of the field name, which no field has: the line is ignored.
        let later = await Self.events("data: a\n\u{FEFF}data: b\n\n")
        #expect(later == StreamOutcome(values: [ServerSentEvent(data: "a")]))
        // Only one is skipped.
        let twice = await Self.events("\u{FEFF}\u{FEFF}data: a\n\n")
        #expect(twice == StreamOutcome(values: []))
    }

    @Test("the last event id persists from event to event; an empty id resets it, one containing NUL is ignored")
    func ids() async {
        let result = await Self.events("id: 7\ndata: a\n\ndata: b\n\nid: x\u{0}y\ndata: c\n\nid:\ndata: d\n\n")
        #expect(result.values.map(\.id) == ["7", "7", "7", nil])
    }

    @Test("a block without data fires nothing, but its id holds for the next event")
    func idWithoutData() async {
        let result = await Self.events("id: 3\n\nevent: ping\n\ndata: after\n\n")
        #expect(result == StreamOutcome(values: [ServerSentEvent(data: "after", id: "3")]))
    }

    @Test("retry takes ASCII digits only and persists; anything else is ignored")
    func retry() async {
        let stream = "retry: 1500\ndata: a\n\nretry: 15x\ndata: b\n\nretry: -1\nretry:\nretry: 2.5\ndata: c\n\nretry:250\ndata: d\n\n"
        let result = await Self.events(stream)
        #expect(result.values.map(\.retry) == [.milliseconds(1500), .milliseconds(1500), .milliseconds(1500), .milliseconds(250)])
        let huge = await Self.events("retry: 99999999999999999999999\ndata: a\n\n")
        #expect(huge.values.map(\.retry) == [nil])
    }

    @Test("a field without a colon has an empty value; unknown fields and comments are ignored")
    func fieldsWithoutColon() async {
        let result = await Self.events(": comment\nfoo: bar\nevent\ndata\ndata: x\nData: y\n\n")
        #expect(result == StreamOutcome(values: [ServerSentEvent(type: "message", data: "\nx")]))
    }

    @Test("a colon in the value stays; only the first colon separates the name")
    func colonInValue() async {
        let result = await Self.events("data: a: b:c\n\n")
        #expect(result.values.map(\.data) == ["a: b:c"])
    }

    @Test("invalid UTF-8 becomes U+FFFD")
    func invalidUTF8() async {
        let bytes = Array("data: a".utf8) + [0xFF, 0xC3] + Array("b\n\n".utf8)
        let result = await readAll(ChunkFeed(bytes, cuts: []).serverSentEvents())
        #expect(result.values.map(\.data) == ["a\u{FFFD}\u{FFFD}b"])
    }

    @Test("an event's JSON data decodes into the caller's type")
    func decodesData() throws {
        struct Quote: Decodable, Equatable {
            let symbol: String
            let change: Int
        }
        let event = ServerSentEvent(data: #"{"symbol":"YHOO","change":2}"#)
        #expect(try event.decodeData(as: Quote.self) == Quote(symbol: "YHOO", change: 2))
    }

    @Test("data that does not decode is a decoding error that names the type but not the data")
    func undecodableData() {
        struct Quote: Decodable { let symbol: String }
        let event = ServerSentEvent(data: #"{"token":"s3cr3t-value"}"#)
        #expect {
            _ = try event.decodeData(as: Quote.self)
        } throws: { error in
            guard let error = error as? SwitchyardError else { return false }
            return error.code == .decoding && error.message.contains("symbol") && !error.message.contains("s3cr3t")
        }
        let notJSON = ServerSentEvent(data: "s3cr3t-value")
        #expect {
            _ = try notJSON.decodeData(as: Quote.self)
        } throws: { error in
            guard let error = error as? SwitchyardError else { return false }
            return error.code == .decoding && error.message.contains("not valid JSON") && !error.message.contains("s3cr3t")
        }
    }

    @Test("a line longer than the limit ends the stream with limitExceeded, after the events before it")
    func lineLimit() async {
        let long = String(repeating: "x", count: 100)
        let result = await Self.events("data: a\n\ndata: \(long)\n\n", maximumSize: 50)
        #expect(result == StreamOutcome(values: [ServerSentEvent(data: "a")], error: .limitExceeded))
        #expect(result.message?.contains("50 bytes") == true)
        // Unfinished, it is refused as soon as it outgrows the limit, whatever the chunks.
        let unfinished = await Self.events("data: a\n\ndata: \(long)", cuts: [20, 40, 60, 80], maximumSize: 50)
        #expect(unfinished == result)
    }

    @Test("an event gathering more data than the limit ends the stream with limitExceeded")
    func eventLimit() async {
        let lines = String(repeating: "data: 0123456789\n", count: 10)
        let result = await Self.events(lines + "\n", maximumSize: 64)
        #expect(result == StreamOutcome(values: [], error: .limitExceeded))
        let fits = await Self.events(String(repeating: "data: 0123456789\n", count: 5) + "\n", maximumSize: 64)
        #expect(fits.values.map(\.data.count) == [54])
    }
}

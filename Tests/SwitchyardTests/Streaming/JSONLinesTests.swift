import Foundation
import Switchyard
import Testing

@Suite("JSON Lines and lines")
struct JSONLinesTests {
    struct Player: Decodable, Equatable, Sendable {
        let name: String
        let wins: [[String]]
    }

    @Test("the JSON Lines site's example: one value per line, decoded into the caller's type")
    func playersExample() async {
        let stream = """
            {"name": "Gilbert", "wins": [["straight", "7♣"], ["one pair", "10♥"]]}
            {"name": "Alexa", "wins": [["two pair", "4♠"], ["two pair", "9♠"]]}
            {"name": "May", "wins": []}
            {"name": "Deloise", "wins": [["three of a kind", "5♣"]]}

            """
        let result = await readAll(ChunkFeed(stream).jsonLines(of: Player.self))
        #expect(result.error == nil)
        #expect(result.values.map(\.name) == ["Gilbert", "Alexa", "May", "Deloise"])
        #expect(result.values[0].wins == [["straight", "7♣"], ["one pair", "10♥"]])
    }

    @Test("the JSON Lines site's tabular example: arrays of mixed values")
    func tabularExample() async {
        enum Cell: Decodable, Equatable, Sendable {
            case text(String)
            case number(Int)
            case flag(Bool)
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let flag = try? container.decode(Bool.self) {
                    self = .flag(flag)
                } else if let number = try? container.decode(Int.self) {
                    self = .number(number)
                } else {
                    self = .text(try container.decode(String.self))
                }
            }
        }
        let stream = """
            ["Name", "Session", "Score", "Completed"]
            ["Gilbert", "2013", 24, true]
            ["Alexa", "2013", 29, true]
            ["May", "2012B", 14, false]
            ["Deloise", "2012A", 19, true]
            """
        let result = await readAll(ChunkFeed(stream).jsonLines(of: [Cell].self))
        #expect(result.values.count == 5)
        #expect(result.values[3] == [.text("May"), .text("2012B"), .number(14), .flag(false)])
    }

    @Test("blank lines are skipped, CRLF is tolerated and the last line needs no line end")
    func blankLinesAndCRLF() async {
        let result = await readAll(ChunkFeed("1\r\n\r\n  \n2\n\t\n3").jsonLines(of: Int.self))
        #expect(result == StreamOutcome(values: [1, 2, 3]))
    }

    @Test("a line that is not JSON ends the stream with a decoding error naming its index, not its text")
    func invalidLine() async {
        let result = await readAll(ChunkFeed("1\n\n2\nsecret-token-abc\n4\n").jsonLines(of: Int.self))
        #expect(result == StreamOutcome(values: [1, 2], error: .decoding))
        #expect(result.message?.contains("value 2 of the JSON Lines stream") == true)
        #expect(result.message?.hasSuffix("cannot be decoded as Int") == true)
        #expect(result.message?.contains("secret-token-abc") == false)
    }

    @Test("a value of the wrong shape says which member does not fit")
    func wrongShape() async {
        let result = await readAll(ChunkFeed(#"{"name": "Gilbert", "wins": 3}"#).jsonLines(of: Player.self))
        #expect(result.error == .decoding)
        #expect(result.message?.hasPrefix("value 0 of the JSON Lines stream: ") == true)
        #expect(result.message?.contains("wins") == true)
    }

    @Test("a line longer than the limit ends the stream with limitExceeded")
    func limit() async {
        let result = await readAll(
            ChunkFeed("1\n" + String(repeating: "2", count: 40) + "\n3\n", cuts: [5, 10]).jsonLines(of: Int.self, maximumSize: 16)
        )
        #expect(result == StreamOutcome(values: [1], error: .limitExceeded))
    }

    @Test("lines keep empty lines, drop LF and CRLF, and keep a last line without a line end")
    func rawLines() async {
        let result = await readAll(ChunkFeed("a\r\n\nb c\nlast").lines())
        #expect(result == StreamOutcome(values: ["a", "", "b c", "last"]))
        let empty = await readAll(ChunkFeed([]).lines())
        #expect(empty == StreamOutcome(values: []))
    }
}

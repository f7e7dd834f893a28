import Foundation
import Switchyard
import Testing

@Suite("JSON text sequences")
struct JSONSequenceTests {
    static let rs = "\u{1E}"

    struct Reading: Decodable, Equatable, Sendable {
        let sensor: String
        let value: Double
    }

    @Test("RFC 7464 records: RS, a JSON text, LF — objects, arrays, strings and top-level numbers")
    func records() async {
        let stream = "\(Self.rs){\"sensor\":\"a\",\"value\":1.5}\n\(Self.rs){\"sensor\":\"b\",\"value\":-2}\n"
        let result = await readAll(ChunkFeed(stream).jsonSequence(of: Reading.self))
        #expect(result == StreamOutcome(values: [Reading(sensor: "a", value: 1.5), Reading(sensor: "b", value: -2)]))
        let scalars = await readAll(ChunkFeed("\(Self.rs)123\n\(Self.rs)\"x\\\"}\"\n\(Self.rs)[1,[2]]\n").jsonSequence(of: AnyJSON.self))
        #expect(scalars == StreamOutcome(values: [.number(123), .text("x\"}"), .list([.number(1), .list([.number(2)])])]))
    }

    @Test("a record may span lines: it ends at the LF that completes its text")
    func prettyPrinted() async {
        let stream = "\(Self.rs){\n  \"sensor\": \"a\",\n  \"value\": 1\n}\n\(Self.rs){\"sensor\":\"b\",\"value\":2}\n"
        let result = await readAll(ChunkFeed(stream).jsonSequence(of: Reading.self))
        #expect(result.values.map(\.sensor) == ["a", "b"])
    }

    @Test("a truncated record — cut by the next RS or by the end of the stream — is skipped (RFC 7464 §2.3)")
    func truncated() async {
        let stream = "\(Self.rs){\"sensor\":\"a\",\"val\(Self.rs){\"sensor\":\"b\",\"value\":2}\n\(Self.rs)12"
        let result = await readAll(ChunkFeed(stream).jsonSequence(of: Reading.self))
        #expect(result == StreamOutcome(values: [Reading(sensor: "b", value: 2)]))
        // A number without its LF may be cut short ("12" of "123"): never taken.
        let number = await readAll(ChunkFeed("\(Self.rs)1\n\(Self.rs)12").jsonSequence(of: Int.self))
        #expect(number == StreamOutcome(values: [1]))
    }

    @Test("empty records, and bytes before the first RS or after a record's LF, are ignored")
    func ignoredBytes() async {
        let stream = "junk\n\(Self.rs)\(Self.rs)\n\(Self.rs)1\ntrailing\n\(Self.rs)  \n\(Self.rs)2\n"
        let result = await readAll(ChunkFeed(stream).jsonSequence(of: Int.self))
        #expect(result == StreamOutcome(values: [1, 2]))
    }

    @Test("a whole record that does not decode ends the stream with a decoding error naming its index")
    func invalidRecord() async {
        let stream = "\(Self.rs)1\n\(Self.rs)secret]\n\(Self.rs)3\n"
        let result = await readAll(ChunkFeed(stream).jsonSequence(of: Int.self))
        #expect(result == StreamOutcome(values: [1], error: .decoding))
        #expect(result.message?.contains("value 1 of the JSON text sequence") == true)
        #expect(result.message?.contains("secret") == false)
    }

    @Test("a record longer than the limit ends the stream with limitExceeded, even one that would be truncated")
    func limit() async {
        let long = "[" + String(repeating: "1,", count: 40) + "1]"
        let result = await readAll(ChunkFeed("\(Self.rs)[1]\n\(Self.rs)\(long)\n").jsonSequence(of: [Int].self, maximumSize: 32))
        #expect(result == StreamOutcome(values: [[1]], error: .limitExceeded))
        let cut = await readAll(ChunkFeed("\(Self.rs)\(long)\(Self.rs)2\n").jsonSequence(of: Int.self, maximumSize: 32))
        #expect(cut == StreamOutcome(values: [], error: .limitExceeded))
    }
}

/// Any JSON value, for records whose shape varies.
enum AnyJSON: Decodable, Equatable, Sendable {
    case number(Double)
    case text(String)
    case list([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else if let list = try? container.decode([AnyJSON].self) {
            self = .list(list)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }
}

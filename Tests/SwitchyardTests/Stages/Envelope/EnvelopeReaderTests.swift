import Foundation
import Testing

@testable import Switchyard

@Suite("Envelope reader: only the paths named at creation are read")
struct EnvelopeReaderTests {
    @Test("a top-level name not named at creation reads as nothing, even one that appears twice")
    func unnamedTopLevelName() throws {
        let reader = try EnvelopeReader(Data(#"{"code":0,"x":1,"x":2,"y":3}"#.utf8), paths: ["code"])
        #expect(reader.scalar(at: "code") == "0")
        #expect(reader.scalar(at: "x") == nil)
        #expect(reader.scalar(at: "y") == nil)
        #expect(reader.range(at: "y") == nil)
    }

    @Test("the first name of a nested path is not itself read unless it was named")
    func firstNameOfNestedPath() throws {
        let body = Data(#"{"status":{"code":7},"data":[1]}"#.utf8)
        let reader = try EnvelopeReader(body, paths: ["status.code", "data"])
        #expect(reader.scalar(at: "status.code") == "7")
        #expect(reader.raw(at: "data") == Data("[1]".utf8))
        #expect(reader.raw(at: "status") == nil)
    }
}

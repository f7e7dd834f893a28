import Switchyard
import Testing

private enum Count: ResponseMetadataKey { typealias Value = Int }
private enum Label: ResponseMetadataKey { typealias Value = String }
private enum Flags: ResponseMetadataKey { typealias Value = [String: Int] }

@Suite("Response metadata: typed values by key, replaced and removed by key")
struct ResponseMetadataTests {
    @Test("a value is read back under its own key only, of its own type")
    func readsBackByKey() {
        var metadata = ResponseMetadata()
        #expect(metadata.isEmpty)
        metadata[Count.self] = 3
        metadata[Label.self] = "ok"
        metadata[Flags.self] = ["a": 1, "b": 2]
        #expect(metadata[Count.self] == 3)
        #expect(metadata[Label.self] == "ok")
        #expect(metadata[Flags.self] == ["a": 1, "b": 2])
        #expect(!metadata.isEmpty)
    }

    @Test("storing under a key again replaces its value and leaves the others")
    func replaces() {
        var metadata = ResponseMetadata()
        metadata[Count.self] = 1
        metadata[Label.self] = "first"
        metadata[Count.self] = 2
        #expect(metadata[Count.self] == 2)
        #expect(metadata[Label.self] == "first")
    }

    @Test("storing nil removes the key's value; removing an absent key changes nothing")
    func removes() {
        var metadata = ResponseMetadata()
        metadata[Label.self] = nil
        #expect(metadata.isEmpty)
        metadata[Count.self] = 1
        metadata[Label.self] = "kept"
        metadata[Count.self] = nil
        #expect(metadata[Count.self] == nil)
        #expect(metadata[Label.self] == "kept")
        metadata[Label.self] = nil
        #expect(metadata.isEmpty)
        metadata[Count.self] = 4
        #expect(metadata[Count.self] == 4)
    }

    @Test("a copy is a value: changing it leaves the original as it was")
    func copiesAreValues() {
        var original = ResponseMetadata()
        original[Count.self] = 1
        var copy = original
        copy[Count.self] = 2
        copy[Label.self] = "copy"
        #expect(original[Count.self] == 1)
        #expect(original[Label.self] == nil)
        #expect(copy[Count.self] == 2)
    }
}

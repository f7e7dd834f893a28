import Switchyard
import Testing

private enum StoredCount: ResponseMetadataKey { typealias Value = Int }
private enum StoredLabel: ResponseMetadataKey { typealias Value = String }
private enum StoredFlags: ResponseMetadataKey { typealias Value = [String: Int] }

@Suite("Response metadata: typed values by key, replaced and removed by key")
struct ResponseMetadataTests {
    @Test("a value is read back under its own key only, of its own type")
    func readsBackByKey() {
        var metadata = ResponseMetadata()
        #expect(metadata.isEmpty)
        metadata[StoredCount.self] = 3
        metadata[StoredLabel.self] = "ok"
        metadata[StoredFlags.self] = ["a": 1, "b": 2]
        #expect(metadata[StoredCount.self] == 3)
        #expect(metadata[StoredLabel.self] == "ok")
        #expect(metadata[StoredFlags.self] == ["a": 1, "b": 2])
        #expect(!metadata.isEmpty)
    }

    @Test("storing under a key again replaces its value and leaves the others")
    func replaces() {
        var metadata = ResponseMetadata()
        metadata[StoredCount.self] = 1
        metadata[StoredLabel.self] = "first"
        metadata[StoredCount.self] = 2
        #expect(metadata[StoredCount.self] == 2)
        #expect(metadata[StoredLabel.self] == "first")
    }

    @Test("storing nil removes the key's value; removing an absent key changes nothing")
    func removes() {
        var metadata = ResponseMetadata()
        metadata[StoredLabel.self] = nil
        #expect(metadata.isEmpty)
        metadata[StoredCount.self] = 1
        metadata[StoredLabel.self] = "kept"
        metadata[StoredCount.self] = nil
        #expect(metadata[StoredCount.self] == nil)
        #expect(metadata[StoredLabel.self] == "kept")
        metadata[StoredLabel.self] = nil
        #expect(metadata.isEmpty)
        metadata[StoredCount.self] = 4
        #expect(metadata[StoredCount.self] == 4)
    }

    @Test("a copy is a value: changing it leaves the original as it was")
    func copiesAreValues() {
        var original = ResponseMetadata()
        original[StoredCount.self] = 1
        var copy = original
        copy[StoredCount.self] = 2
        copy[StoredLabel.self] = "copy"
        #expect(original[StoredCount.self] == 1)
        #expect(original[StoredLabel.self] == nil)
        #expect(copy[StoredCount.self] == 2)
    }
}

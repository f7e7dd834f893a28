import Foundation
import Switchyard
import Testing

/// ``CacheKey`` hashes its parts once, when it is made; these tests hold it to what a key must be
/// whatever way it was made: equal parts are one key, any differing part is another, and the stored
/// form is the four parts alone.
@Suite("Cache keys")
struct CacheKeyTests {
    static let base = CacheKey(serviceID: "Users", endpoint: "profile", identity: "develop\nGET\nexample.com\n/me\n", partition: .public)

    @Test("keys made from equal parts are equal and hash alike; the service id is compared without case")
    func equalPartsAreOneKey() {
        let other = CacheKey(serviceID: "users", endpoint: "profile", identity: "develop\nGET\nexample.com\n/me\n", partition: .public)
        #expect(other == Self.base)
        #expect(other.hashValue == Self.base.hashValue)
        #expect(Set([Self.base, other]).count == 1)
    }

    @Test("a key differing in any one part is another key")
    func anyPartTellsKeysApart() {
        let others = [
            CacheKey(serviceID: "orders", endpoint: "profile", identity: Self.base.identity, partition: .public),
            CacheKey(serviceID: "users", endpoint: "settings", identity: Self.base.identity, partition: .public),
            CacheKey(serviceID: "users", endpoint: "profile", identity: Self.base.identity + "page=2", partition: .public),
            CacheKey(serviceID: "users", endpoint: "profile", identity: Self.base.identity, partition: CredentialPartition(account: "ana")),
        ]
        for other in others { #expect(other != Self.base, "\(other)") }
        #expect(Set(others + [Self.base]).count == 5)
    }

    @Test("the stored form holds the four parts only, and a key read back is the same key")
    func codableRoundTrip() throws {
        let key = CacheKey(serviceID: "users", endpoint: "profile", identity: "i", partition: CredentialPartition(account: "ana"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(key)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object.keys.sorted() == ["endpoint", "identity", "partition", "serviceID"])
        let read = try JSONDecoder().decode(CacheKey.self, from: data)
        #expect(read == key && read.hashValue == key.hashValue)
        #expect(Set([read, key]).count == 1)
    }

    @Test("a stored key with a missing part is refused, not read as a different key")
    func incompleteStoredKeyIsRefused() {
        let data = Data(#"{"serviceID":"users","endpoint":"profile","identity":"i"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CacheKey.self, from: data) }
    }
}

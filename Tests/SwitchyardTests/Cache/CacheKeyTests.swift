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

    @Test("a key written in the stored format before keys kept their hash reads back as the key made from the same parts")
    func literalStoredKeyReads() throws {
        let data = Data(#"{"serviceID":"users","endpoint":"profile","identity":"i","partition":{"rawValue":"public"}}"#.utf8)
        let read = try JSONDecoder().decode(CacheKey.self, from: data)
        let made = CacheKey(serviceID: "users", endpoint: "profile", identity: "i", partition: .public)
        #expect(read == made && read.hashValue == made.hashValue)
    }

    /// The expected identity was computed outside Swift (Python, FNV-1a 64 by its published
    /// parameters), so a changed separator, part order or hash shows here.
    @Test("the key of a POST read: environment, method, authority, path, sorted query without volatile names, body digest")
    func keyOfARequest() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/search?b=2&timestamp=99&a=1"))
        let request = try #require(Request(method: .post, url: url, body: .bytes(Data(#"{"q":"x"}"#.utf8))))
        let context = CallContext(serviceID: .users, endpointName: "Search", environment: .develop)
        let key = CacheKey.of(request, context: context, partition: .public, excluding: CacheStage.defaultExcludedParameters)
        #expect(key.identity == "develop\nPOST\napi.example.com\n/v1/search\na=1&b=2\nbody:9:abced0b2c17fdb8c")
        #expect(key.serviceID == "users" && key.endpoint == "Search" && key.partition == .public)
    }

    @Test("a stored key with a missing part is refused, not read as a different key")
    func incompleteStoredKeyIsRefused() {
        let data = Data(#"{"serviceID":"users","endpoint":"profile","identity":"i"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CacheKey.self, from: data) }
    }
}

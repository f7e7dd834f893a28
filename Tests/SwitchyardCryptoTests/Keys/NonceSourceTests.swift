import Foundation
import Testing

@testable import SwitchyardCrypto

@Suite("Nonce source")
struct NonceSourceTests {
    @Test("20,000 nonces across many pool refills never repeat, and none is all zeros")
    func noncesNeverRepeat() throws {
        var seen = Set<Data>()
        for index in 0..<20_000 {
            // Sizes that do not divide the pool, so draws straddle refills.
            let nonce = try NonceSource.bytes(count: index % 2 == 0 ? 12 : 16)
            #expect(nonce.contains { $0 != 0 })
            seen.insert(nonce)
        }
        #expect(seen.count == 20_000)
    }

    @Test("a draw larger than the pool's largest goes to the generator and is still random")
    func largeDrawsBypassThePool() throws {
        let first = try NonceSource.bytes(count: 100)
        let second = try NonceSource.bytes(count: 100)
        #expect(first.count == 100)
        #expect(first != second)
        #expect(first.contains { $0 != 0 })
    }

    @Test("concurrent draws from many tasks are all distinct")
    func concurrentDrawsAreDistinct() async throws {
        let nonces = try await withThrowingTaskGroup(of: [Data].self) { group in
            for _ in 0..<8 {
                group.addTask { try (0..<1_000).map { _ in try NonceSource.bytes(count: 12) } }
            }
            var all: [Data] = []
            for try await batch in group { all += batch }
            return all
        }
        #expect(nonces.count == 8_000)
        #expect(Set(nonces).count == 8_000)
    }
}

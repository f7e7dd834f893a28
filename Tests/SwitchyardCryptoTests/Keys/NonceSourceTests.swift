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

    @Test("hexadecimal nonces, drawn between byte nonces, are two lower-case digits a byte and never repeat")
    func hexNoncesNeverRepeat() throws {
        var seen = Set<String>()
        for index in 0..<10_000 {
            // Interleaved with byte draws of another size, so hexadecimal draws straddle refills too.
            _ = try NonceSource.bytes(count: index % 3 == 0 ? 12 : 5)
            let nonce = try NonceSource.hex(count: 16)
            #expect(nonce.utf8.count == 32)
            #expect(nonce.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            #expect(nonce != String(repeating: "0", count: 32))
            seen.insert(nonce)
        }
        #expect(seen.count == 10_000)
    }

    @Test("a hexadecimal draw larger than the pool's largest, or of nothing, still comes out whole")
    func hexDrawSizes() throws {
        let large = try NonceSource.hex(count: 100)
        #expect(large.utf8.count == 200)
        #expect(large != (try NonceSource.hex(count: 100)))
        #expect(try NonceSource.hex(count: 0) == "")
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

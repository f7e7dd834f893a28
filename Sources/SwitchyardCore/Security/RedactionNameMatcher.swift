import Foundation

/// A ``Redaction``'s name fragments and secret names prepared, once, for judging ASCII names byte by
/// byte: the fragments as bytes, and the lengths and first bytes the names have, so that a word
/// matching neither is ruled out without making or hashing a string.
struct RedactionNameMatcher: Sendable {
    /// The name fragments' UTF-8 bytes.
    private let fragments: [[UInt8]]
    /// Bit `n` set when a name is `n` bytes long (bit 63: 63 bytes or more).
    private let lengths: UInt64
    /// Bit `b & 63` set when a name starts with byte `b`.
    private let firsts: UInt64

    init(fragments: [String], names: Set<String>) {
        self.fragments = fragments.map { Array($0.utf8) }
        var lengths: UInt64 = 0
        var firsts: UInt64 = 0
        for name in names {
            let bytes = name.utf8
            // A name set compares canonically equivalent spellings as one: a non-ASCII name may match
            // an ASCII word of another length and first byte (U+037E is `;`), so it rules out nothing.
            guard bytes.allSatisfy({ $0 < 0x80 }) else {
                (lengths, firsts) = (~0, ~0)
                break
            }
            lengths |= 1 << UInt64(min(bytes.count, 63))
            if let first = bytes.first { firsts |= 1 << UInt64(first & 63) }
        }
        self.lengths = lengths
        self.firsts = firsts
    }

    /// Whether `lowered` contains one of the fragments.
    func containsFragment(_ lowered: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = lowered.baseAddress else { return fragments.contains { $0.isEmpty } }
        for fragment in fragments {
            if fragment.isEmpty { return true }
            guard fragment.count <= lowered.count else { continue }
            let found = fragment.withUnsafeBufferPointer { needle -> Bool in
                guard let needleBase = needle.baseAddress else { return true }
                // Each place the first byte occurs, compared whole.
                let last = lowered.count - needle.count
                var start = 0
                while start <= last, let hit = memchr(base + start, Int32(needleBase.pointee), last - start + 1) {
                    start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + start, needleBase, needle.count) == 0 { return true }
                    start += 1
                }
                return false
            }
            if found { return true }
        }
        return false
    }

    /// Whether the bytes of `range` in `lowered` may be one of the names: `false` rules it out.
    func mayBeName(_ lowered: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return lengths & 1 != 0 }
        return lengths & (1 << UInt64(min(range.count, 63))) != 0 && firsts & (1 << UInt64(lowered[range.lowerBound] & 63)) != 0
    }
}

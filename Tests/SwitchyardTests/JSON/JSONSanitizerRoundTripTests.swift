import Foundation
import Switchyard
import Testing

@Suite("JSON sanitizer: randomized round trips against Foundation's parser")
struct JSONSanitizerRoundTripTests {
    @Test("2,000 seeded random documents: the output parses to Foundation's parse of the input without nulls")
    func randomDocuments() throws {
        var generator = RandomJSONGenerator(seed: 0x5EED_0F_5A17)
        var stripped = 0
        for index in 0..<2_000 {
            let value = generator.value(depth: 0)
            let options: JSONSerialization.WritingOptions =
                index.isMultiple(of: 5) ? [.fragmentsAllowed, .prettyPrinted] : [.fragmentsAllowed]
            let input = try JSONSerialization.data(withJSONObject: value, options: options)
            let arrays = index.isMultiple(of: 2)
            let output: Data
            do {
                output = try JSONSanitizer(removeNullArrayElements: arrays).stripNulls(input)
            } catch {
                Issue.record("document \(index) was rejected: \(error.message)\n\(String(decoding: input, as: UTF8.self))")
                continue
            }
            if output.count < input.count { stripped += 1 }
            let expected = FoundationOracle.strippingNulls(try FoundationOracle.parse(input), arrays: arrays)
            let actual = try FoundationOracle.parse(output)
            #expect(
                FoundationOracle.equal(actual, expected),
                "document \(index) (removeNullArrayElements: \(arrays))\ninput:  \(String(decoding: input, as: UTF8.self))\noutput: \(String(decoding: output, as: UTF8.self))"
            )
            // A second pass has nothing left to drop.
            #expect(try JSONSanitizer(removeNullArrayElements: arrays).stripNulls(output) == output)
        }
        #expect(stripped > 500)
    }
}

/// Builds random JSON values from a seed (SplitMix64): objects, arrays, strings with escapes and
/// non-ASCII text, integers and reals, booleans and nulls, at most six levels deep.
struct RandomJSONGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A value; containers become rarer with depth and stop at depth 6.
    mutating func value(depth: Int) -> Any {
        let kinds = depth >= 6 ? 6 : 8 + max(0, 4 - depth)
        switch below(kinds) {
        case 0, 1: return NSNull()
        case 2: return string()
        case 3: return below(2) == 0
        case 4: return below(1_000_000) - 500_000
        case 5: return Double(below(2_000_000) - 1_000_000) / Double([1, 8, 100, 3, 1_000_000][below(5)])
        default:
            let count = below(7)
            if below(2) == 0 {
                return (0..<count).map { _ in value(depth: depth + 1) }
            }
            var object: [String: Any] = [:]
            for _ in 0..<count { object[string()] = value(depth: depth + 1) }
            return object
        }
    }

    /// A short string drawn from ASCII, characters that need escaping, and non-ASCII text.
    private mutating func string() -> String {
        let pieces = [
            "a", "null", "Z", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{01}", "\u{1F}", "é", "张衡", "🚀", "ß", "{", "]", ":", ",",
            "\u{2028}", "\u{7F}",
        ]
        return (0..<below(9)).map { _ in pieces[below(pieces.count)] }.joined()
    }
}

import Foundation
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Testing

/// Mutates a sealed success envelope the way an attacker on the path (or a broken proxy) might.
private struct EnvelopeMutator {
    var random: SplitMix64
    let sealed: String

    /// Bytes that change the structure of JSON when they land in it.
    private static let structural = Array(#"{}[]":,\ nx0"#.utf8) + [0x00, 0x0A, 0xEF, 0xFF]

    mutating func mutate(_ body: Data) -> Data {
        var bytes = [UInt8](body)
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0 where !bytes.isEmpty: bytes[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            case 1 where !bytes.isEmpty: bytes[at] = Self.structural.randomElement(using: &random)!
            case 2: bytes.insert(Self.structural.randomElement(using: &random)!, at: at)
            case 3 where !bytes.isEmpty: bytes.remove(at: at)
            case 4: bytes = Array(bytes.prefix(at))
            case 5: bytes = [0xEF, 0xBB, 0xBF] + bytes
            case 6: bytes += Array(Self.strays.randomElement(using: &random)!.utf8)
            case 7:
                bytes = Array(replacing(in: bytes, #""data":"\#(sealed)""#, with: Self.replacements(sealed).randomElement(using: &random)!))
            default: bytes = Array(replacing(in: bytes, "}", with: Self.duplicates(sealed).randomElement(using: &random)! + "}"))
            }
        }
        return Data(bytes)
    }

    private static let strays = ["x", " x", ",", "}", "\u{0}", "{}", " "]

    /// What the sealed member can be turned into (or nothing: the member removed, its comma with it).
    private static func replacements(_ sealed: String) -> [String] {
        [
            #""data":null"#, #""data":{}"#, #""data":"""#, #""data":{"paid":true}"#, #""dat":"\#(sealed)""#,
            #""data":"\#(sealed)","data":null"#,
        ]
    }

    /// A second member of the same name, added before the closing brace.
    private static func duplicates(_ sealed: String) -> [String] {
        [#","data":null"#, #","data":"\#(sealed)""#, #","data":{"paid":false}"#, #","data":"AAAA""#]
    }

    /// `bytes` with the first occurrence of `target` replaced (or unchanged when there is none).
    private func replacing(in bytes: [UInt8], _ target: String, with replacement: String) -> [UInt8] {
        let needle = Array(target.utf8)
        guard needle.count <= bytes.count else { return bytes }
        for start in 0...(bytes.count - needle.count) where bytes[start..<(start + needle.count)].elementsEqual(needle) {
            return Array(bytes[..<start]) + Array(replacement.utf8) + Array(bytes[(start + needle.count)...])
        }
        return bytes
    }
}

/// The envelope once opened, as Foundation's `JSONDecoder` reads it.
private struct Opened: Decodable, Equatable {
    struct Payload: Decodable, Equatable {
        let paid: Bool
        let id: String
    }
    let data: Payload
}

@Suite("Sealed envelopes under fuzzing")
struct SealedEnvelopeFuzzTests {
    @Test("10,000 mutated sealed envelope answers are each opened correctly or refused with a crypto error, never passed on unopened")
    func mutatedEnvelopes() async throws {
        let sealed = try LegacyAnswers.sealedText(scheme: .aes256GCM)
        let original = LegacyAnswers.envelope(sealed)
        let expected = try JSONSerialization.jsonObject(with: LegacyAnswers.payload) as? NSDictionary
        var mutator = EnvelopeMutator(random: SplitMix64(seed: 0x5EA1_ED31), sealed: sealed)
        let harness = StageHarness(LegacyAnswers.stage(response: .envelopeMember("data")))
        var opened = 0
        var refused = 0
        var unopened: [String] = []
        for _ in 0..<10_000 {
            let body = mutator.mutate(original)
            let run = await harness.run(try LegacyAnswers.payRequest(), respond: LegacyAnswers.answer(body))
            if let error = run.error {
                #expect(error.code == .crypto, "\(error.code): \(error.message)")
                refused += 1
                continue
            }
            // A success must carry the payload, opened, as every JSON reader sees it: one that
            // reads the last of a repeated name, and one that reads the first.
            let answer = run.response?.bytes ?? Data()
            let last = (try? JSONSerialization.jsonObject(with: answer)) as? NSDictionary
            let first = try? JSONDecoder().decode(Opened.self, from: answer)
            if last?["data"] as? NSDictionary == expected, first == Opened(data: .init(paid: true, id: "p-1")) {
                opened += 1
            } else {
                unopened.append(String(decoding: body, as: UTF8.self))
            }
        }
        #expect(unopened.count == 0, "answers passed on unopened; the first: \(unopened.first ?? "")")
        #expect(opened > 0 && refused > 0, "opened \(opened), refused \(refused)")
    }
}

import Foundation
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Testing

@Suite("An envelope that names its sealed member ambiguously is refused under every response policy")
struct AmbiguousEnvelopeTests {
    /// Envelopes on which readers disagree about the sealed member, each with the member's key path.
    static func ambiguousEnvelopes() throws -> [(label: String, path: String, body: Data)] {
        let sealed = try LegacyAnswers.sealedText(scheme: .aes256GCM)
        return [
            ("the member twice, null last", "data", Data(#"{"code":0,"data":"\#(sealed)","data":null}"#.utf8)),
            ("the member twice, null first", "data", Data(#"{"code":0,"data":null,"data":"\#(sealed)"}"#.utf8)),
            ("the member twice, sealed then plain", "data", Data(#"{"code":0,"data":"\#(sealed)","data":{"paid":false}}"#.utf8)),
            ("another member twice with a null", "data", Data(#"{"code":0,"code":null,"data":"\#(sealed)"}"#.utf8)),
            (
                "an object on the path twice, the member only in the first", "result.data",
                Data(#"{"code":0,"result":{"data":"\#(sealed)"},"result":{}}"#.utf8)
            ),
        ]
    }

    @Test(
        "with each policy, an ambiguous envelope fails with a crypto error that keeps the answer as sent, unverified",
        arguments: [EncryptionStage.ResponsePolicy.requireEncrypted, .acceptPlaintext]
    )
    func refused(policy: EncryptionStage.ResponsePolicy) async throws {
        for (label, path, body) in try Self.ambiguousEnvelopes() {
            let run = await StageHarness(LegacyAnswers.stage(response: .envelopeMember(path), policy: policy))
                .run(try LegacyAnswers.payRequest(), respond: LegacyAnswers.answer(body))
            #expect(run.response == nil, "\(label): passed on as \(String(decoding: run.response?.bytes ?? Data(), as: UTF8.self))")
            #expect(run.error?.code == .crypto, "\(label)")
            #expect(run.error?.message.contains("ambiguous JSON") == true, "\(label): \(run.error?.message ?? "")")
            #expect(run.error?.response?.isUnverified == true, "\(label)")
            #expect(run.error?.response?.bytes == body, "\(label)")
        }
    }

    @Test("accepting plaintext still passes on an unambiguous envelope with nothing sealed in it")
    func plaintextStillPasses() async throws {
        let harness = StageHarness(LegacyAnswers.stage(response: .envelopeMember("data"), policy: .acceptPlaintext))
        for body in [#"{"code":0,"msg":"ok","data":null}"#, #"{"code":0,"msg":"ok"}"#, #"{"code":0,"tag":1,"tag":2}"#] {
            let run = await harness.run(try LegacyAnswers.payRequest(), respond: LegacyAnswers.answer(Data(body.utf8)))
            #expect(run.response?.bytes == Data(body.utf8), "\(body): \(run.error?.message ?? "")")
        }
    }
}

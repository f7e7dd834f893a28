import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Testing

@Suite("Sealed means sealed: a 2xx that was not opened is refused, whatever the framing")
struct SealedAnswerTests {
    /// Envelopes an attacker on the path can make of a sealed success `{"code":0,"msg":"ok","data":"<S>"}`.
    static func hostileEnvelopes() throws -> [(String, Data)] {
        let sealed = try LegacyAnswers.sealedText(scheme: .aes256GCM)
        let envelope = LegacyAnswers.envelope(sealed)
        let bom = Data([0xEF, 0xBB, 0xBF])
        return [
            ("truncated", envelope.dropLast()),
            ("a byte order mark", bom + envelope),
            ("a stray byte after the envelope", envelope + Data("x".utf8)),
            ("a stray byte inside the envelope", Data(#"{"code":0,x"msg":"ok","data":"\#(sealed)"}"#.utf8)),
            ("the member twice, null last", Data(#"{"code":0,"data":"\#(sealed)","data":null}"#.utf8)),
            ("the member twice, null first", Data(#"{"code":0,"data":null,"data":"\#(sealed)"}"#.utf8)),
            ("the member twice, sealed both times", Data(#"{"code":0,"data":"\#(sealed)","data":"\#(sealed)"}"#.utf8)),
            ("the member twice, sealed then plain", Data(#"{"code":0,"data":"\#(sealed)","data":{"paid":false}}"#.utf8)),
            ("the member replaced by null", Data(#"{"code":0,"msg":"ok","data":null}"#.utf8)),
            ("the member removed", Data(#"{"code":0,"msg":"ok"}"#.utf8)),
            ("not an object", Data(#"["\#(sealed)"]"#.utf8)),
        ]
    }

    @Test("an envelope that is not strict JSON, names the member twice, or lost it is refused with a crypto error, never passed on")
    func hostileEnvelopesAreRefused() async throws {
        let harness = StageHarness(LegacyAnswers.stage(response: .envelopeMember("data")))
        for (label, body) in try Self.hostileEnvelopes() {
            let run = await harness.run(try LegacyAnswers.payRequest(), respond: LegacyAnswers.answer(body))
            #expect(run.response == nil, "\(label): passed on as \(String(decoding: run.response?.bytes ?? Data(), as: UTF8.self))")
            #expect(run.error?.code == .crypto, "\(label)")
            #expect(run.error?.stage == .encryption, "\(label)")
            #expect(run.error?.message.contains("no sealed member 'data'") == true, "\(label): \(run.error?.message ?? "")")
            // The answer stays readable for what it is: unverified, as it arrived.
            #expect(run.error?.response?.isUnverified == true, "\(label)")
            #expect(run.error?.response?.bytes == body, "\(label)")
        }
    }

    @Test("a nested key path is held to the same: an object on the way named twice is refused")
    func nestedPath() async throws {
        let sealed = try LegacyAnswers.sealedText(scheme: .aes256GCM)
        let harness = StageHarness(LegacyAnswers.stage(response: .envelopeMember("result.data")))
        let good = Data(#"{"code":0,"result":{"data":"\#(sealed)","page":1}}"#.utf8)
        let opened = await harness.run(try LegacyAnswers.payRequest(), respond: LegacyAnswers.answer(good))
        #expect(opened.response?.bytes == Data(#"{"code":0,"result":{"data":{"paid":true,"id":"p-1"},"page":1}}"#.utf8))
        for body in [
            #"{"code":0,"result":{"data":"\#(sealed)"},"result":{"data":"\#(sealed)"}}"#,
            #"{"code":0,"result":{"data":"\#(sealed)","data":"\#(sealed)"}}"#,
            #"{"code":0,"result":null}"#,
            #"{"code":0,"result":{"data":null}}"#,
        ] {
            let run = await harness.run(try LegacyAnswers.payRequest(), respond: LegacyAnswers.answer(Data(body.utf8)))
            #expect(run.error?.code == .crypto, "\(body)")
        }
    }

    /// What a success carries: the whole-body and envelope-member versions of one answer.
    enum Shape: String, CaseIterable, CustomTestStringConvertible {
        case sealed, plaintext, nothing, tampered, otherKey
        var testDescription: String { rawValue }

        func bodies() throws -> (whole: Data, envelope: Data) {
            let key = SymmetricKey(Data(repeating: self == .otherKey ? 0x33 : 0x5a, count: 32))
            var sealed = try EncryptionScheme.aes256GCM.seal(LegacyAnswers.payload, key: key, aad: Data())
            if self == .tampered { sealed[sealed.count / 2] ^= 0x01 }
            switch self {
            case .sealed, .tampered, .otherKey:
                return (sealed, LegacyAnswers.envelope(sealed.base64EncodedString()))
            case .plaintext:
                return (LegacyAnswers.payload, Data(#"{"code":0,"msg":"ok","data":{"paid":true,"id":"p-1"}}"#.utf8))
            case .nothing:
                return (Data(), Data(#"{"code":0,"msg":"ok","data":null}"#.utf8))
            }
        }

        /// Whether a `200` of this shape passes the stage under `policy`.
        func passes(_ policy: EncryptionStage.ResponsePolicy) -> Bool {
            self == .sealed || (self == .nothing && policy == .acceptPlaintext)
        }
    }

    @Test(
        "the whole-body and envelope-member framings agree on what is refused",
        arguments: Shape.allCases,
        [EncryptionStage.ResponsePolicy.requireEncrypted, .acceptPlaintext]
    )
    func framingsAgree(shape: Shape, policy: EncryptionStage.ResponsePolicy) async throws {
        let (whole, envelope) = try shape.bodies()
        let wholeRun = await StageHarness(LegacyAnswers.stage(response: .wholeBody(), policy: policy))
            .run(try LegacyAnswers.payRequest(), respond: LegacyAnswers.answer(whole))
        let envelopeRun = await StageHarness(LegacyAnswers.stage(response: .envelopeMember("data"), policy: policy))
            .run(try LegacyAnswers.payRequest(), respond: LegacyAnswers.answer(envelope))
        #expect((wholeRun.response != nil) == shape.passes(policy), "whole body: \(wholeRun.error?.message ?? "passed")")
        #expect((envelopeRun.response != nil) == shape.passes(policy), "envelope: \(envelopeRun.error?.message ?? "passed")")
        if !shape.passes(policy) {
            #expect(wholeRun.error?.code == .crypto)
            #expect(envelopeRun.error?.code == .crypto)
        }
        if shape == .sealed {
            #expect(wholeRun.response?.bytes == LegacyAnswers.payload)
            #expect(envelopeRun.response?.bytes == Data(#"{"code":0,"msg":"ok","data":{"paid":true,"id":"p-1"}}"#.utf8))
        }
    }

    @Test("where HTTP says there is no body — a 204, an answer to HEAD — both framings pass it on", arguments: [false, true])
    func bodilessAnswers(head: Bool) async throws {
        for framing in [EncryptionFraming.ResponseFraming.wholeBody(), .envelopeMember("data")] {
            let run = await StageHarness(LegacyAnswers.stage(response: framing))
                .run(
                    try LegacyAnswers.payRequest(head ? .head : .post),
                    respond: LegacyAnswers.answer(Data(), status: head ? .ok : .noContent)
                )
            #expect(run.response != nil, "\(framing): \(run.error?.message ?? "")")
        }
        let empty200 = await StageHarness(LegacyAnswers.stage(response: .envelopeMember("data")))
            .run(try LegacyAnswers.payRequest(), respond: LegacyAnswers.answer(Data()))
        #expect(empty200.error?.code == .crypto)
    }

    @Test(
        "a 205 Reset Content has no content (RFC 9110), like a 204: every framing passes it on under requireEncrypted",
        arguments: ["headers", "whole body", "envelope member"]
    )
    func resetContent(framing: String) async throws {
        let stage =
            switch framing {
            case "headers": EncryptionStage(keyRing: LegacyAnswers.ring)
            case "whole body": LegacyAnswers.stage(response: .wholeBody())
            default: LegacyAnswers.stage(response: .envelopeMember("data"))
            }
        let run = await StageHarness(stage).run(
            try LegacyAnswers.payRequest(),
            respond: LegacyAnswers.answer(Data(), status: .resetContent)
        )
        #expect(run.error == nil, "\(run.error?.message ?? "")")
        #expect(run.response?.status == .resetContent)
    }

    @Test("an error status passes on as an HTTP status, unverified: its envelope as sent without a sealed member, opened with one")
    func errorStatuses() async throws {
        let harness = StageHarness(LegacyAnswers.stage(response: .envelopeMember("data")))
        for body in [#"{"code":500,"msg":"down","data":null}"#, #"{"code":500,"msg":"down"}"#, "<html>502 Bad Gateway</html>"] {
            let run = await harness.run(
                try LegacyAnswers.payRequest(),
                respond: LegacyAnswers.answer(Data(body.utf8), status: .internalServerError)
            )
            #expect(run.response?.status == .internalServerError, "\(body)")
            #expect(run.response?.isUnverified == true, "\(body)")
            #expect(run.response?.bytes == Data(body.utf8), "\(body)")
        }
        let sealed = try LegacyAnswers.sealedText(Data(#"{"reason":"limit"}"#.utf8), scheme: .aes256GCM)
        let body = Data(#"{"code":4001,"msg":"refused","data":"\#(sealed)"}"#.utf8)
        let run = await harness.run(try LegacyAnswers.payRequest(), respond: LegacyAnswers.answer(body, status: .badRequest))
        #expect(run.response?.bytes == Data(#"{"code":4001,"msg":"refused","data":{"reason":"limit"}}"#.utf8))
        #expect(run.response?.isUnverified == true)
    }
}

import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Envelopes as servers send them: metadata, raw detail, message hook, key paths, code-less envelopes")
struct EnvelopeShapesTests {
    private func run(_ stage: EnvelopeStage, body: String, status: HTTPResponse.Status = .ok) async throws -> HarnessRun {
        await StageHarness(stage).run(try .fixture(.get, "https://api.test/users/1"), respond: .json(body, status: status))
    }

    @Test("on success the code and message are kept in the call's result metadata")
    func successMetadata() async throws {
        let client = try makeClient(
            stages: [EnvelopeStage(successCodes: [0])],
            transport: MockTransport(.json(#"{"code":0,"msg":"ok","data":[1]}"#))
        )
        let result = try await client.send(.users, .get, "/list", as: [Int].self)
        #expect(result.value == [1])
        #expect(result.metadata[EnvelopeStage.Outcome.self] == EnvelopeStage.Outcome(code: "0", message: "ok"))
    }

    @Test("a business failure keeps the server's raw code and message; the hook maps the code to the readable sentence")
    func messageHook() async throws {
        let stage = EnvelopeStage(successCodes: [0]) { code, _ in code == "4004" ? "Dieser Artikel ist ausverkauft." : nil }
        let error = try await run(stage, body: #"{"code":4004,"msg":"SKU_OUT_OF_STOCK","data":null}"#).error
        #expect(error?.code == .business)
        #expect(error?.message == "Dieser Artikel ist ausverkauft.")
        #expect(error?.detail(as: EnvelopeFailure.self) == EnvelopeFailure(businessCode: "4004", serverMessage: "SKU_OUT_OF_STOCK"))
        let unmapped = try await run(stage, body: #"{"code":5000,"msg":"internal"}"#).error
        #expect(unmapped?.message == "internal (code 5000)")
    }

    @Test("an envelope whose code appears twice, once as null, is refused: readers would disagree on it")
    func ambiguousCodeIsRefused() async throws {
        let error = try await run(EnvelopeStage(successCodes: [0]), body: #"{"code":0,"code":null,"data":{}}"#).error
        #expect(error?.code == .invalidResponse)
    }

    @Test("a member on a key path named twice, once as null, is refused at that depth too")
    func ambiguousNestedCodeIsRefused() async throws {
        let stage = EnvelopeStage(keys: .init(code: "status.code", message: "status.msg", data: "result"), successCodes: [200])
        let error = try await run(stage, body: #"{"status":{"code":200,"code":null},"result":{}}"#).error
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("'code' appears more than once") == true)
    }

    @Test("an ambiguity inside the payload is not the envelope's to judge: the payload passes on exactly as sent")
    func payloadAmbiguityPassesOn() async throws {
        let run = try await run(EnvelopeStage(successCodes: [0]), body: #"{"code":0,"data":{"x":1,"x":null}}"#)
        #expect(run.response?.bodyText == #"{"x":1,"x":null}"#)
        // The null-stripping stage, which reads inside the payload, refuses it.
        #expect(throws: SwitchyardError.self) { try JSONSanitizer().stripNulls(Data(#"{"x":1,"x":null}"#.utf8)) }
    }

    @Test("key paths reach nested members: status.code, status.msg, result.data")
    func keyPaths() async throws {
        let stage = EnvelopeStage(keys: .init(code: "status.code", message: "status.msg", data: "result.data"), successCodes: [200])
        let ok = try await run(stage, body: #"{"status":{"code":200,"msg":"fine"},"result":{"data":{"id":9},"page":1}}"#)
        #expect(ok.response?.bodyText == #"{"id":9}"#)
        let failed = try await run(stage, body: #"{"status":{"code":"403","msg":"forbidden"},"result":{}}"#).error
        #expect(failed?.detail(as: EnvelopeFailure.self)?.businessCode == "403")
    }

    @Test("a boolean success member decides; the code member, when present, names the failure")
    func flagEnvelope() async throws {
        let stage = EnvelopeStage(keys: .init(code: "error_code", message: "error", data: "payload"), success: .flag("success"))
        #expect(try await run(stage, body: #"{"success":true,"payload":[1,2]}"#).response?.bodyText == "[1,2]")
        let failed = try await run(stage, body: #"{"success":false,"error":"bad input","error_code":"E12"}"#).error
        #expect(failed?.code == .business)
        #expect(failed?.detail(as: EnvelopeFailure.self) == EnvelopeFailure(businessCode: "E12", serverMessage: "bad input"))
        #expect(try await run(stage, body: #"{"success":false}"#).error?.detail(as: EnvelopeFailure.self)?.businessCode == "false")
    }

    @Test("an envelope with only a data member is unwrapped")
    func dataOnly() async throws {
        let stage = EnvelopeStage(success: .always)
        #expect(try await run(stage, body: #"{"data":{"a":1}}"#).response?.bodyText == #"{"a":1}"#)
    }

    @Test("an HTTP 503 that carries an envelope keeps both its status and the business detail, and is retried on the status")
    func errorStatusWithEnvelope() async throws {
        let transport = MockTransport(.json(#"{"code":9001,"msg":"maintenance"}"#, status: .serviceUnavailable))
        let retry = RetryStage(RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(1), jitter: 0), sleep: { _ in })
        let client = try makeClient(stages: [retry, EnvelopeStage(successCodes: [0])], transport: transport)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.users, .get, "/x") }
        #expect(error?.code == .business)
        #expect(error?.status == .serviceUnavailable)
        #expect(error?.detail(as: EnvelopeFailure.self)?.businessCode == "9001")
        #expect(transport.requests.count == 2)
    }
}

import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Envelope stage")
struct EnvelopeStageTests {
    private func run(_ stage: EnvelopeStage, body: String) async throws -> HarnessRun {
        await StageHarness(stage).run(try .fixture(.get, "https://api.test/users/1"), respond: .json(body))
    }

    @Test("a success code hands on the payload exactly as sent")
    func unwrapsPayload() async throws {
        let run = try await run(
            EnvelopeStage(successCodes: [0]),
            body: #"{"code":0,"msg":"ok","data":{"id":1,"score":1.50,"name":"张衡","tags":[null]}}"#
        )
        #expect(run.response?.bodyText == #"{"id":1,"score":1.50,"name":"张衡","tags":[null]}"#)
    }

    @Test("a null or missing payload becomes null")
    func nullPayload() async throws {
        #expect(
            try await run(EnvelopeStage(successCodes: [100]), body: #"{"code":100,"msg":"success","data":null}"#).response?.bodyText
                == "null"
        )
        #expect(try await run(EnvelopeStage(successCodes: [100]), body: #"{"code":100}"#).response?.bodyText == "null")
    }

    @Test("a business code becomes a typed error with the backend's message and code; its handler runs first")
    func businessFailure() async throws {
        let recorder = EventRecorder()
        let stage = EnvelopeStage(
            successCodes: [0],
            handlers: [
                401001: { error, context in
                    recorder.record("re-login for \(context.serviceID): \(error.detail(as: EnvelopeFailure.self)?.businessCode ?? "")")
                }
            ]
        )
        let run = try await run(stage, body: #"{"code":401001,"msg":"login expired, please log in again","data":null}"#)
        let error = try #require(run.error)
        #expect(error.code == .business)
        #expect(error.detail(as: EnvelopeFailure.self)?.businessCode == "401001")
        #expect(error.message == "login expired, please log in again (code 401001)")
        #expect(error.stage == StageID("Envelope"))
        #expect(recorder.events == ["re-login for harness: 401001"])
        let other = try await self.run(stage, body: #"{"code":4004,"msg":"user not found","data":null}"#)
        #expect(other.error?.detail(as: EnvelopeFailure.self)?.businessCode == "4004")
        #expect(recorder.events.count == 1)
    }

    @Test("custom keys and textual codes; numbers and strings compare as text")
    func customKeys() async throws {
        let stage = EnvelopeStage(keys: .init(code: "errno", message: "errmsg", data: "result"), successCodeTexts: ["SUCCESS", "0"])
        #expect(try await run(stage, body: #"{"errno":"SUCCESS","result":[1,2]}"#).response?.bodyText == "[1,2]")
        #expect(try await run(stage, body: #"{"errno":0,"result":true}"#).response?.bodyText == "true")
        let failure = try await run(stage, body: #"{"errno":"FAIL","errmsg":"余额不足","result":null}"#)
        #expect(failure.error?.message == "余额不足 (code FAIL)")
    }

    @Test(
        "bodies that are not an envelope are invalidResponse errors",
        arguments: [
            "<html>maintenance</html>", "[1,2]", #"{"msg":"no code"}"#, #"{"code":{"nested":1}}"#, #"{"code":0,"data":"#, "",
        ]
    )
    func notAnEnvelope(body: String) async throws {
        let run = try await run(EnvelopeStage(successCodes: [0]), body: body)
        #expect(run.error?.code == .invalidResponse)
    }

    @Test("tricky payloads: strings with braces and escaped quotes, whitespace")
    func trickyPayloads() async throws {
        let body = #" { "data" : {"a":"}\"{[","b":[{"c":"]"}]} , "code" : 0 } "#
        #expect(try await run(EnvelopeStage(successCodes: [0]), body: body).response?.bodyText == #"{"a":"}\"{[","b":[{"c":"]"}]}"#)
    }

    @Test("an error status without an envelope passes on unchanged; with an envelope it is checked")
    func errorStatuses() async throws {
        let stage = EnvelopeStage(successCodes: [0])
        let page = await StageHarness(stage).run(
            try .fixture(.get, "https://api.test/users/1"),
            respond: .status(.serviceUnavailable, body: "<html>busy</html>")
        )
        #expect(page.error == nil && page.response?.status == .serviceUnavailable && page.response?.bodyText == "<html>busy</html>")
        let enveloped = await StageHarness(stage).run(
            try .fixture(.get, "https://api.test/users/1"),
            respond: .json(#"{"code":4001,"msg":"bad input"}"#, status: .badRequest)
        )
        #expect(enveloped.error?.code == .business && enveloped.error?.detail(as: EnvelopeFailure.self)?.businessCode == "4001")
        let malformed = await StageHarness(stage).run(
            try .fixture(.get, "https://api.test/users/1"),
            respond: .status(.ok, body: "<html>ok</html>")
        )
        #expect(malformed.error?.code == .invalidResponse)
    }
}

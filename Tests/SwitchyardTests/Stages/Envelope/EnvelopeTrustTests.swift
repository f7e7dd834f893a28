import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Envelopes are read only as the service's own words: unverified answers, strict flags, no ambiguity, no body")
struct EnvelopeTrustTests {
    private static let proxyEnvelope = #"{"code":401001,"msg":"log in again at https://evil.test","data":null}"#

    /// An answer a signing or encryption stage let through without verifying it.
    private static func unverified(_ body: String, status: HTTPResponse.Status) -> MockResponse {
        MockResponse { _, _ in
            var response = Response(status: status, headerFields: [.contentType: "application/json"], body: Data(body.utf8))
            response.isUnverified = true
            return response
        }
    }

    private func run(
        _ stage: EnvelopeStage,
        _ method: HTTPRequest.Method = .get,
        respond: MockResponse
    ) async throws -> HarnessRun {
        await StageHarness(stage).run(try .fixture(method, "https://api.test/users/1"), respond: respond)
    }

    @Test("an unverified error-status envelope passes on untouched: no business error, no handler, body as sent")
    func unverifiedErrorStatusPassesOn() async throws {
        let recorder = EventRecorder()
        let stage = EnvelopeStage(successCodes: [0], handlers: [401001: { _, _ in recorder.record("re-login") }])
        let run = try await run(stage, respond: Self.unverified(Self.proxyEnvelope, status: .unauthorized))
        #expect(run.error == nil)
        #expect(run.response?.status == .unauthorized)
        #expect(run.response?.bodyText == Self.proxyEnvelope)
        #expect(run.response?.metadata[EnvelopeStage.Outcome.self] == nil)
        #expect(recorder.events.isEmpty)
    }

    @Test("through a client an unverified 401 envelope is an httpStatus error whose response holds the body")
    func unverifiedIsHTTPStatusThroughClient() async throws {
        let client = try makeClient(
            stages: [EnvelopeStage(successCodes: [0])],
            transport: MockTransport(Self.unverified(Self.proxyEnvelope, status: .unauthorized))
        )
        do {
            _ = try await client.send(.users, .get, "/me")
            Issue.record("the call succeeded")
        } catch  where error.code == .business {
            Issue.record("an unverified envelope became a business error: \(error.message)")
        } catch {
            #expect(error.code == .httpStatus)
            #expect(error.status == .unauthorized)
            #expect(error.response?.bodyText == Self.proxyEnvelope)
            #expect(error.response?.isUnverified == true)
            #expect(error.detail(as: EnvelopeFailure.self) == nil)
        }
    }

    @Test("an unverified 2xx envelope is refused, never unwrapped or read as a business failure", arguments: [0, 4004])
    func unverified2xxRefused(code: Int) async throws {
        let body = #"{"code":\#(code),"msg":"m","data":{"paid":true}}"#
        let error = try await run(EnvelopeStage(successCodes: [0]), respond: Self.unverified(body, status: .ok)).error
        #expect(error?.code == .invalidResponse)
        #expect(error?.response?.bodyText == body)
    }

    @Test(
        "a flag reads the JSON literal true only",
        arguments: [
            (#"{"ok":true,"data":1}"#, true), (#"{"ok":"true","data":1}"#, false), (#"{"ok":1,"data":1}"#, false),
            (#"{"ok":"1","data":1}"#, false), (#"{"ok":"TRUE","data":1}"#, false), (#"{"ok":[true],"data":1}"#, false),
        ]
    )
    func flagIsLiteralTrue(body: String, succeeds: Bool) async throws {
        let run = try await run(EnvelopeStage(success: .flag("ok")), respond: .json(body))
        #expect((run.error == nil) == succeeds)
        if !succeeds { #expect(run.error?.code == .business) }
    }

    @Test(
        "a member the envelope reads, named twice, is refused whatever its values",
        arguments: [
            #"{"code":0,"code":4004,"data":{}}"#, #"{"code":4004,"code":0,"data":{}}"#, #"{"code":0,"msg":"a","msg":"b","data":{}}"#,
            #"{"code":0,"data":{"id":1},"data":{"id":2}}"#, #"{"code":0,"data":null,"data":{"id":2}}"#,
            #"{"code":0,"data":{"id":1},"data":null}"#, #"{"code":0,"ok":true,"ok":false,"data":1}"#,
        ]
    )
    func duplicateMembersRefused(body: String) async throws {
        let stage = body.contains(#""ok""#) ? EnvelopeStage(success: .flag("ok")) : EnvelopeStage(successCodes: [0])
        let error = try await run(stage, respond: .json(body)).error
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("appears more than once") == true)
    }

    // `width` others and `code`, `data` and the repeat: 13 gives 16 members (names compared), 14
    // gives 17 (the first indexed by a dictionary, past `linearLimit`).
    @Test(
        "a wide envelope is judged as a narrow one: a read member repeated after many others is refused",
        arguments: [13, 14, 15, 16, 17, 60]
    )
    func wideEnvelopeDuplicates(width: Int) async throws {
        let others = (0..<width).map { #""m\#($0)":\#($0)"# }.joined(separator: ",")
        let stage = EnvelopeStage(successCodes: [0])
        let repeated = try await run(stage, respond: .json(#"{"code":0,\#(others),"data":[1],"code":4004}"#)).error
        #expect(repeated?.code == .invalidResponse)
        #expect(repeated?.message.contains("appears more than once") == true)
        let withNull = try await run(stage, respond: .json(#"{"code":0,\#(others),"m1":null,"data":[1]}"#)).error
        #expect(withNull?.message.contains("with a null among its values") == true)
        let fine = try await run(stage, respond: .json(#"{"code":0,\#(others),"data":[1],"m0":0}"#))
        #expect(fine.response?.bodyText == "[1]")
    }

    @Test("an object on a key path named twice is refused too, without a null")
    func duplicateNestedRefused() async throws {
        let stage = EnvelopeStage(keys: .init(code: "status.code", message: "status.msg", data: "result"), successCodes: [200])
        let twiceInside = try await run(stage, respond: .json(#"{"status":{"code":500,"code":200},"result":{}}"#)).error
        #expect(twiceInside?.code == .invalidResponse)
        let twiceOutside = try await run(stage, respond: .json(#"{"status":{"code":500},"status":{"code":200},"result":{}}"#)).error
        #expect(twiceOutside?.code == .invalidResponse)
    }

    @Test("names the envelope does not read may repeat: the payload is the decoder's to judge")
    func unreadDuplicatesPassOn() async throws {
        let run = try await run(EnvelopeStage(successCodes: [0]), respond: .json(#"{"code":0,"trace":"a","trace":"b","data":[1]}"#))
        #expect(run.response?.bodyText == "[1]")
    }

    @Test("204, 205 and 304 pass on untouched", arguments: [204, 205, 304])
    func bodilessStatuses(status: Int) async throws {
        let run = try await run(EnvelopeStage(successCodes: [0]), respond: .status(HTTPResponse.Status(code: status)))
        #expect(run.error == nil)
        #expect(run.response?.status.code == status)
        #expect(run.response?.bytes.isEmpty == true)
        #expect(run.response?.metadata[EnvelopeStage.Outcome.self] == nil)
    }

    @Test("an answer to HEAD passes on untouched")
    func headPassesOn() async throws {
        let run = try await run(
            EnvelopeStage(successCodes: [0]),
            .head,
            respond: .status(.ok, headerFields: [.contentType: "application/json", .contentLength: "42"])
        )
        #expect(run.error == nil)
        #expect(run.response?.headerFields[.contentLength] == "42")
    }

    @Test("a 204 through a client with an envelope stage succeeds")
    func noContentThroughClient() async throws {
        let client = try makeClient(stages: [EnvelopeStage(successCodes: [0])], transport: MockTransport(.status(.noContent)))
        let result = try await client.send(.users, .delete, "/sessions/1", as: NoContent.self)
        #expect(result.value == NoContent())
    }
}

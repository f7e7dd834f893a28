import Foundation
import HTTPTypes
import SwitchyardTesting
import Testing

@testable import Switchyard

/// The one closure stage type and its three constructors, each run alone in the harness.
@Suite("Closure stages")
struct ClosureStageTests {
    let id: StageID = "closure"

    @Test("a request closure changes the request the rest of the chain sees")
    func requestClosure() async throws {
        let stage = ClosureStage.request(id: id) { request, _ in request.headerFields[.acceptLanguage] = "zh-Hans" }
        let run = await StageHarness(stage).run(try .fixture(.get, "https://api.test/a"))
        #expect(run.forwardedRequest?.headerFields[.acceptLanguage] == "zh-Hans")
        #expect(run.response?.status == .ok)
    }

    @Test("a response closure changes the response and sees the request as sent")
    func responseClosure() async throws {
        let stage = ClosureStage.response(id: id) { response, request, _ in
            response.headerFields[.contentLanguage] = request.headerFields[.acceptLanguage] ?? "none"
        }
        var request = try Request.fixture(.get, "https://api.test/a")
        request.headerFields[.acceptLanguage] = "de"
        let run = await StageHarness(stage).run(request)
        #expect(run.response?.headerFields[.contentLanguage] == "de")
    }

    @Test("a request closure that throws refuses the call before anything is sent, blaming the stage")
    func requestClosureRefuses() async throws {
        struct Refused: Error {}
        let stage = ClosureStage.request(id: id) { _, _ in throw Refused() }
        let run = await StageHarness(stage).run(try .fixture(.get, "https://api.test/a"))
        #expect(!run.calledNext)
        #expect(run.error?.stage == id)
    }

    @Test("an around closure may answer without calling next")
    func aroundClosureShortCircuits() async throws {
        let stage = ClosureStage(id: id) { _, _, _ in Response(status: .notModified) }
        let run = await StageHarness(stage).run(try .fixture(.get, "https://api.test/a"))
        #expect(!run.calledNext)
        #expect(run.response?.status == .notModified)
    }

    @Test("an around closure recovers a failure of the rest of the chain (an older layer's will-fail hook)")
    func aroundClosureRecovers() async throws {
        let stage = ClosureStage(id: id) { request, context, next in
            do {
                return try await next(request, context)
            } catch let error as SwitchyardError where error.code == .transport {
                return Response(status: .ok, body: Data("[]".utf8))
            }
        }
        let run = await StageHarness(stage).run(try .fixture(.get, "https://api.test/a"), respond: .connectionRefused)
        #expect(run.response?.bodyText == "[]")
    }

    @Test("a response closure turns a success into a failure (an older layer's will-succeed hook)")
    func responseClosureFails() async throws {
        let stage = ClosureStage.response(id: id) { response, _, _ in
            if response.bodyText == "[]" { throw SwitchyardError(code: .invalidResponse, message: "an empty list is a failure here") }
        }
        let run = await StageHarness(stage).run(try .fixture(.get, "https://api.test/a"), respond: .json("[]"))
        #expect(run.error?.code == .invalidResponse)
        #expect(run.error?.stage == id)
    }

    @Test("a closure that does not await runs as the synchronous fast path; one that awaits does not")
    func synchronousFastPath() async throws {
        let plain = ClosureStage.request(id: id) { request, _ in request.headerFields[.accept] = "*/*" }
        let waiting = ClosureStage.request(id: id) { request, _ in
            await Task.yield()
            request.headerFields[.accept] = "*/*"
        }
        let checked = ClosureStage.response(id: id) { response, _, _ in response.headerFields[.server] = nil }
        #expect(plain.folded is any SynchronousRequestStage)
        #expect(!(waiting.folded is any SynchronousRequestStage))
        #expect(checked.folded is any SynchronousResponseStage)
        let run = await StageHarness(plain).run(try .fixture(.get, "https://api.test/a"))
        #expect(run.forwardedRequest?.headerFields[.accept] == "*/*")
    }
}

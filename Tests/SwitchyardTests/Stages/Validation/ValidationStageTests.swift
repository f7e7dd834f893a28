import Foundation
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Validation stage")
struct ValidationStageTests {
    @Test("statuses and content types per service, replaced per call")
    func rules() async throws {
        let stage = ValidationStage(.json)
        let ok = await StageHarness(stage).run(try .fixture(.get, "https://api.test/a"), respond: .json("{}"))
        #expect(ok.response != nil)
        let html = await StageHarness(stage).run(
            try .fixture(.get, "https://api.test/a"),
            respond: .status(.ok, body: "<html>", headerFields: [.contentType: "text/html; charset=utf-8"])
        )
        #expect(html.error?.code == .contentType)
        #expect(html.error?.message == "the response's content type is 'text/html'; expected application/json or application/*+json")
        let problem = await StageHarness(stage).run(
            try .fixture(.get, "https://api.test/a"),
            respond: .status(.ok, body: "{}", headerFields: [.contentType: "application/problem+json"])
        )
        #expect(problem.response != nil)
        let noContent = await StageHarness(stage).run(try .fixture(.delete, "https://api.test/a"), respond: .status(.noContent))
        #expect(noContent.response != nil)
        let server = await StageHarness(stage).run(try .fixture(.get, "https://api.test/a"), respond: .status(.badGateway, body: "oops"))
        #expect(server.error?.code == .httpStatus)
        #expect(server.error?.status == .badGateway)
        #expect(server.error?.response?.bytes == Data("oops".utf8))

        var context = CallContext(serviceID: .users)
        context[ValidationStage.CallRules.self] = ValidationStage.Rules(statuses: [200, 404], contentTypes: ["text/*"])
        let notFound = await StageHarness(stage).run(
            try .fixture(.get, "https://api.test/a"),
            context: context,
            respond: .status(.notFound, body: "gone", headerFields: [.contentType: "text/plain"])
        )
        #expect(notFound.response?.status == .notFound)
    }

    @Test("media type matching")
    func matching() {
        #expect(ValidationStage.matches("application/json", pattern: "application/json"))
        #expect(ValidationStage.matches("application/vnd.api+json", pattern: "application/*+json"))
        #expect(!ValidationStage.matches("application/xml", pattern: "application/*+json"))
        #expect(ValidationStage.matches("text/csv", pattern: "text/*"))
        #expect(!ValidationStage.matches("", pattern: "*/*"))
        #expect(ValidationStage.mediaType(" Application/JSON ; charset=UTF-8") == "application/json")
    }
}

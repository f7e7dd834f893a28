import Foundation
import HTTPTypes
import Switchyard
import SwitchyardHAR
import SwitchyardTesting
import Testing

/// A call's trace through the client: off unless asked for, per call or per service, in order, on the
/// result, on the error, and in HAR archives.
@Suite("Trace: a call's per-stage trace through the client")
struct PipelineTraceTests {
    let stages: [any Stage] = [
        HeadersStage([.fixed(HTTPField.Name("X-Client-Version")!, "1.0.0")]),
        CommonParametersStage([.fixed("app_version", "3.2")]),
        ClosureStage.request(id: "Token") { request, _ in request.headerFields[.authorization] = "Bearer tok-123456" },
        NullStrippingStage(),
    ]

    @Test("a call that does not ask for a trace has none")
    func offByDefault() async throws {
        let client = try makeClient(stages: stages, transport: echoTransport)
        let result = try await client.send(.users, .get, "/users/7")
        #expect(result.trace == nil)
        #expect(result.stageTimings == nil)
    }

    @Test("a traced call lists every stage in order, the transport last")
    func perCall() async throws {
        let client = try makeClient(stages: stages, transport: echoTransport)
        var options = CallOptions()
        options.trace = .diffs
        let result = try await client.send(.users, .get, "/users/7", options: options)
        let trace = try #require(result.trace)
        #expect(trace.steps.map(\.stage) == [.headers, .commonParameters, StageID("Token"), .nullStripping, .transport])
        #expect(trace[.headers]?.request[.header, "X-Client-Version"]?.after == "1.0.0")
        #expect(trace[.commonParameters]?.request[.query, "app_version"]?.after == "3.2")
        #expect(trace[StageID("Token")]?.request[.header, "Authorization"]?.isRedacted == true)
        #expect(trace[.transport]?.sent?.line == "GET https://api.example.com/users/7?app_version=3.2")
        #expect(result.stageTimings != nil)
    }

    @Test("a service whose defaults trace traces every call")
    func perService() async throws {
        let client = try makeClient(stages: stages, defaults: ServiceDefaults(trace: .diffs), transport: echoTransport)
        let result = try await client.send(.users, .get, "/users/7")
        #expect(result.trace?.steps.count == 5)
    }

    @Test("a traced call keeps the redacted text of what was sent and received only with .bodies")
    func bodies() async throws {
        let client = try makeClient(stages: stages, transport: echoTransport)
        var options = CallOptions()
        options.trace = .diffs
        let plain = try await client.send(.users, .post, "/users", parameters: ["name": "Ann", "password": "hunter2"], options: options)
        #expect(plain.trace?[.transport]?.sent?.bodyText == nil)
        options.trace = .bodies
        let kept = try await client.send(.users, .post, "/users", parameters: ["name": "Ann", "password": "hunter2"], options: options)
        let sent = try #require(kept.trace?[.transport]?.sent?.bodyText)
        #expect(sent.contains("Ann"))
        #expect(!sent.contains("hunter2"))
    }

    @Test("a failed call carries its trace on the error, the failing stage's step thrown")
    func onError() async throws {
        let refusing = ClosureStage.response(id: "Refuse") { _, _, _ in
            throw SwitchyardError(code: .invalidResponse, message: "refused")
        }
        let client = try makeClient(stages: stages + [refusing], defaults: ServiceDefaults(trace: .diffs), transport: echoTransport)
        let error = await #expect(throws: SwitchyardError.self) { try await client.send(.users, .get, "/users/7") }
        let trace = try #require(error?.trace)
        #expect(trace[StageID("Refuse")]?.outcome == .threw)
        #expect(trace[StageID("Refuse")]?.error?.contains("refused") == true)
        #expect(trace[.transport]?.outcome == .passed)
    }

    @Test("an answer outside the acceptable statuses carries the trace too")
    func onStatusError() async throws {
        let client = try makeClient(stages: stages, defaults: ServiceDefaults(trace: .diffs), transport: MockTransport(.status(.notFound)))
        let error = await #expect(throws: SwitchyardError.self) { try await client.send(.users, .get, "/users/7") }
        #expect(error?.code == .httpStatus)
        #expect(error?.trace?[.transport]?.received?.line.hasPrefix("404") == true)
    }

    @Test("a HAR archive's entries carry the stages inside the recording stage as _stages, and the tags")
    func harAnnotations() async throws {
        let recorder = HARRecorder()
        let client = try makeClient(
            stages: [HARRecordingStage(recorder: recorder)] + stages,
            defaults: ServiceDefaults(trace: .diffs),
            transport: echoTransport
        )
        var options = CallOptions(tags: ["profile"])
        options.trace = .diffs
        _ = try await client.send(.users, .get, "/users/7", options: options)
        let entry = try #require(recorder.entries.first)
        #expect(entry.stages?.map(\.stage) == [.headers, .commonParameters, StageID("Token"), .nullStripping, .transport])
        #expect(entry.tags == ["profile"])
        let json = String(decoding: try recorder.export(), as: UTF8.self)
        #expect(json.contains("\"_stages\""))
        #expect(!json.contains("tok-123456"))
        let decoded = try JSONDecoder().decode(HAR.Document.self, from: try recorder.export())
        #expect(decoded.log.entries.first?.stages == entry.stages)
    }

    @Test("a HAR entry of an untraced call has no _stages")
    func harWithoutTrace() async throws {
        let recorder = HARRecorder()
        let client = try makeClient(stages: [HARRecordingStage(recorder: recorder)] + stages, transport: echoTransport)
        _ = try await client.send(.users, .get, "/users/7")
        #expect(recorder.entries.first?.stages == nil)
        #expect(!String(decoding: try recorder.export(), as: UTF8.self).contains("_stages"))
    }

    @Test("a trace reads back from its JSON form, and an invalid stage id in it is refused")
    func codable() async throws {
        let client = try makeClient(stages: stages, defaults: ServiceDefaults(trace: .diffs), transport: echoTransport)
        let trace = try #require(try await client.send(.users, .get, "/users/7").trace)
        let data = try JSONEncoder().encode(trace)
        #expect(try JSONDecoder().decode(PipelineTrace.self, from: data) == trace)
        let hostile = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"Headers\"", with: "\"Hea ders!\"")
        #expect(throws: (any Error).self) { try JSONDecoder().decode(PipelineTrace.self, from: Data(hostile.utf8)) }
    }
}

import Foundation
import HTTPTypes
import SwitchyardTesting
import Testing

@testable import Switchyard

@Suite("Pipeline: ordering, short-circuit, re-sending, skipping, description")
struct PipelineTests {
    @Test("stages run in registration order on the way in and reverse order on the way out")
    func orderingContract() async throws {
        let recorder = EventRecorder()
        let transport = MockTransport { _, _ in
            recorder.record("transport")
            return Response(status: .ok)
        }
        let client = try makeClient(
            stages: [RecordingStage("A", recorder), RecordingStage("B", recorder), RecordingStage("C", recorder)],
            transport: transport
        )
        _ = try await client.send(.users, .get, "/ping")
        #expect(recorder.events == ["A in", "B in", "C in", "transport", "C out", "B out", "A out"])
    }

    @Test("a request change made by an outer stage is seen by inner stages and the transport; response changes flow outward")
    func changesFlowBothWays() async throws {
        let seen = EventRecorder()
        let outer = ClosureStage.request(id: "outer") { request, _ in request.headerFields[.userAgent] = "outer" }
        let inner = ClosureStage(id: "inner") { request, context, next in
            seen.record("inner saw \(request.headerFields[.userAgent] ?? "nothing")")
            var response = try await next(request, context)
            response.headerFields[.server] = "inner"
            return response
        }
        let check = ClosureStage.response(id: "check") { response, _, _ in
            seen.record("outer saw \(response.headerFields[.server] ?? "nothing")")
        }
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(stages: [check, outer, inner], transport: transport)
        _ = try await client.send(.users, .get, "/")
        #expect(seen.events == ["inner saw outer", "outer saw inner"])
        #expect(transport.requests.first?.headerFields[.userAgent] == "outer")
    }

    @Test("a stage that does not call next short-circuits: inner stages and the transport never run")
    func shortCircuit() async throws {
        let recorder = EventRecorder()
        let stub = ClosureStage(id: "stub") { _, _, _ in
            Response(status: .ok, body: Data(#"{"id":9,"name":"Stub"}"#.utf8), source: .stub)
        }
        let transport = MockTransport(.status(.internalServerError))
        let client = try makeClient(stages: [RecordingStage("A", recorder), stub, RecordingStage("B", recorder)], transport: transport)
        let result = try await client.send(GetUser(id: "9"))
        #expect(result.value == User(id: 9, name: "Stub"))
        #expect(result.source == .stub)
        #expect(result.attempts == 0)
        #expect(recorder.events == ["A in", "A out"])
        #expect(transport.requestCount == 0)
    }

    @Test("a stage may call next twice (a retry); inner stages run twice and attempts are counted")
    func callsNextTwice() async throws {
        let recorder = EventRecorder()
        let retryOnce = ClosureStage(id: "retry-once") { request, context, next in
            do {
                return try await next(request, context)
            } catch {
                return try await next(request, context.nextAttempt())
            }
        }
        let attempts = EventRecorder()
        let observe = ClosureStage(id: "observe") { request, context, next in
            attempts.record("attempt \(context.attempt)")
            return try await next(request, context)
        }
        let transport = MockTransport(sequence: [.status(.serviceUnavailable), .json(#"{"id":1,"name":"Ada"}"#)])
        let failFirst = ClosureStage.response(id: "status") { response, _, _ in
            if response.status.code >= 500 { throw SwitchyardError(code: .httpStatus, message: "server error") }
        }
        let client = try makeClient(stages: [retryOnce, RecordingStage("inner", recorder), observe, failFirst], transport: transport)
        let result = try await client.send(GetUser(id: "1"))
        #expect(result.value.name == "Ada")
        #expect(result.attempts == 2)
        #expect(attempts.events == ["attempt 1", "attempt 2"])
        #expect(recorder.events == ["inner in", "inner threw", "inner in", "inner out"])
    }

    @Test("a call can skip named stages of its service and add stages of its own, which run outside the service's")
    func skipAndAddPerCall() async throws {
        let recorder = EventRecorder()
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(
            stages: [RecordingStage("CommonParameters", recorder), RecordingStage("Headers", recorder)],
            transport: transport
        )
        var options = CallOptions(skippedStages: ["CommonParameters"])
        options.additionalStages = [RecordingStage("call", recorder)]
        _ = try await client.send(.users, .get, "/", options: options)
        #expect(recorder.events == ["call in", "Headers in", "Headers out", "call out"])

        recorder.reset()
        _ = try await client.send(.users, .get, "/")
        #expect(recorder.events == ["CommonParameters in", "Headers in", "Headers out", "CommonParameters out"])
    }

    @Test("runs of request-only and response-only stages keep the onion order, and skipping works inside a run")
    func batchedRunsKeepOrder() async throws {
        let recorder = EventRecorder()
        func requestStage(_ name: String) -> ClosureStage {
            ClosureStage.request(id: StageID(name)!) { request, _ in
                recorder.record("\(name) in")
                request.headerFields.append(HTTPField(name: HTTPField.Name("x-order")!, value: name))
            }
        }
        func responseStage(_ name: String) -> ClosureStage {
            ClosureStage.response(id: StageID(name)!) { _, _, _ in recorder.record("\(name) out") }
        }
        let transport = MockTransport { _, _ in
            recorder.record("transport")
            return Response(status: .ok)
        }
        let client = try makeClient(
            stages: [
                requestStage("Q1"), requestStage("Q2"), responseStage("R1"), responseStage("R2"),
                RecordingStage("M", recorder), requestStage("Q3"), responseStage("R3"),
            ],
            transport: transport
        )
        _ = try await client.send(.users, .get, "/")
        #expect(recorder.events == ["Q1 in", "Q2 in", "M in", "Q3 in", "transport", "R3 out", "M out", "R2 out", "R1 out"])
        #expect(transport.requests.last?.headerFields[values: HTTPField.Name("x-order")!] == ["Q1", "Q2", "Q3"])

        recorder.reset()
        _ = try await client.send(.users, .get, "/", options: CallOptions(skippedStages: [StageID("Q2"), StageID("R1")]))
        #expect(recorder.events == ["Q1 in", "M in", "Q3 in", "transport", "R3 out", "M out", "R2 out"])
        #expect(transport.requests.last?.headerFields[values: HTTPField.Name("x-order")!] == ["Q1", "Q3"])
    }

    @Test("a request stage inside a run that throws is named, and the stages after it never run")
    func throwingInsideARun() async throws {
        let recorder = EventRecorder()
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(
            stages: [
                ClosureStage.request(id: "first") { _, _ in recorder.record("first") },
                ClosureStage.request(id: "refuse") { _, _ in throw SwitchyardError(code: .invalidRequest, message: "no") },
                ClosureStage.request(id: "third") { _, _ in recorder.record("third") },
            ],
            transport: transport
        )
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.users, .get, "/") }
        #expect(error?.stage == StageID("refuse"))
        #expect(recorder.events == ["first"])
        #expect(transport.requestCount == 0)
    }

    @Test("a pipeline describes its stages in order, then the transport")
    func describesItself() throws {
        let recorder = EventRecorder()
        let registry = makeRegistry()
        try registry.register(
            Service(
                .users,
                baseURL: "https://api.example.com",
                stages: [RecordingStage("Sign", recorder), ClosureStage.request(id: "Headers") { _, _ in }],
                transport: MockTransport(.status(.ok), name: "Mock")
            )
        )
        let pipeline = try registry.pipeline(for: .users)
        #expect(pipeline.stageIDs.map(\.rawValue) == ["Sign", "Headers"])
        #expect(pipeline.description == "users: [1] Sign → [2] Headers → transport Mock")
    }

    @Test("the pipeline is folded at registration: the service's stage values are created once, not per call")
    func foldedOnce() async throws {
        let made = EventRecorder()
        struct Counting: Stage {
            init(_ recorder: EventRecorder) { recorder.record("made") }
            func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
                try await next(request, context)
            }
        }
        let client = try makeClient(stages: [Counting(made)], transport: MockTransport(.status(.ok)))
        for _ in 0..<5 { _ = try await client.send(.users, .get, "/") }
        #expect(made.events == ["made"])
    }

    @Test("an error thrown inside a stage names that stage; a transport error names the transport")
    func errorsNameTheStage() async throws {
        struct Boom: Error {}
        let failing = ClosureStage.request(id: "Signer") { _, _ in throw Boom() }
        let client = try makeClient(stages: [RecordingStage("outer", EventRecorder()), failing], transport: MockTransport(.status(.ok)))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(GetUser(id: "1")) }
        #expect(error?.stage == StageID("Signer"))
        #expect(error?.code == .stageFailure)
        #expect(error?.underlyingError is Boom)

        let refused = try makeClient(transport: MockTransport(.connectionRefused))
        let transportError = await #expect(throws: SwitchyardError.self) { _ = try await refused.send(GetUser(id: "1")) }
        #expect(transportError?.stage == StageID("transport"))
        #expect(transportError?.code == .transport)
    }

    @Test("context values set for a call reach the stages; changes a stage makes are seen only inside it")
    func contextValues() async throws {
        enum Token: CallContextKey { typealias Value = String }
        let seen = EventRecorder()
        let outer = ClosureStage(id: "outer") { request, context, next in
            var inner = context
            inner[Token.self] = "rotated"
            let response = try await next(request, inner)
            seen.record("outer still has \(context[Token.self] ?? "nil")")
            return response
        }
        let reader = ClosureStage(id: "reader") { request, context, next in
            seen.record("inner has \(context[Token.self] ?? "nil")")
            return try await next(request, context)
        }
        let client = try makeClient(stages: [outer, reader], transport: MockTransport(.status(.ok)))
        var options = CallOptions()
        options.setContextValue("original", for: Token.self)
        _ = try await client.send(.users, .get, "/", options: options)
        #expect(seen.events == ["inner has rotated", "outer still has original"])
    }
}

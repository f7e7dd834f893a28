import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

private let seen = HTTPField.Name("X-Seen")!
private let stamped = HTTPField.Name("X-Stamped")!

/// A request-only stage.
private struct Mark: RequestStage {
    func prepare(_ request: inout Request, context: CallContext) async throws {
        request.headerFields[seen] = "prepare"
    }
}

/// A request-only stage that also writes an `intercept`: the pipeline runs `prepare`, and so must the harness.
private struct MarkWithIntercept: RequestStage {
    func prepare(_ request: inout Request, context: CallContext) async throws {
        request.headerFields[seen] = "prepare"
    }
    func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        var request = request
        request.headerFields[seen] = "intercept"
        return try await next(request, context)
    }
}

/// A response-only stage.
private struct Stamp: ResponseStage {
    func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        response.headerFields[stamped] = "process"
    }
}

/// A response-only stage that also writes an `intercept`.
private struct StampWithIntercept: ResponseStage {
    func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        response.headerFields[stamped] = "process"
    }
    func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        var response = try await next(request, context)
        response.headerFields[stamped] = "intercept"
        return response
    }
}

/// A two-way stage.
private struct Both: Stage {
    func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        var request = request
        request.headerFields[seen] = "both"
        var response = try await next(request, context)
        response.headerFields[stamped] = "both"
        return response
    }
}

/// A stage that answers without calling `next`.
private struct ShortCircuit: Stage {
    func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        Response(status: .accepted, body: Data("stub".utf8))
    }
}

/// A request stage that refuses with a plain error.
private struct Refuse: RequestStage {
    struct Refusal: Error {}
    func prepare(_ request: inout Request, context: CallContext) async throws { throw Refusal() }
}

/// A response stage that fails on an error status.
private struct FailOn500: ResponseStage {
    func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        if response.status.code >= 500 { throw SwitchyardError(code: .httpStatus, message: "server error") }
    }
}

/// What a run produced, in a form two runs can be compared by.
private struct Observed: Equatable {
    var forwarded: [String?]
    var status: Int?
    var stampedField: String?
    var body: Data?
    var errorCode: String?
    var errorStage: StageID?
    var errorHasResponse: Bool
}

@Suite("SwitchyardTesting: the harness runs a stage exactly as a pipeline does, for every shape")
struct StageHarnessAgreementTests {
    private static let enabled: CallContext = {
        var context = CallContext(serviceID: "harness", endpointName: "harness")
        context.enabledStages = [StageID(typeName: Mark.self)]
        return context
    }()

    private static let cases: [(name: String, stage: any Stage, respond: MockResponse, context: CallContext?)] = [
        ("request stage", Mark(), .status(.ok), nil),
        ("request stage with its own intercept", MarkWithIntercept(), .status(.ok), nil),
        ("response stage", Stamp(), .status(.ok), nil),
        ("response stage with its own intercept", StampWithIntercept(), .status(.ok), nil),
        ("two-way stage", Both(), .json("{}"), nil),
        ("short-circuit", ShortCircuit(), .status(.ok), nil),
        ("refusal", Refuse(), .status(.ok), nil),
        ("response failure", FailOn500(), .status(.internalServerError, body: "boom"), nil),
        ("transport failure", Mark(), .connectionRefused, nil),
        ("opt-in, not enabled", Mark().optIn(), .status(.ok), nil),
        ("opt-in, enabled", Mark().optIn(), .status(.ok), enabled),
    ]

    private static func observe(_ forwarded: [Request], _ outcome: Result<Response, SwitchyardError>) -> Observed {
        let response = try? outcome.get()
        let error: SwitchyardError? = if case .failure(let error) = outcome { error } else { nil }
        return Observed(
            forwarded: forwarded.map { $0.headerFields[seen] },
            status: response.map { $0.status.code },
            stampedField: response?.headerFields[stamped],
            body: response?.body.bytes,
            errorCode: error?.code.rawValue,
            errorStage: error?.stage,
            errorHasResponse: error?.response != nil
        )
    }

    private static func viaHarness<S: Stage>(
        _ stage: S,
        _ request: Request,
        _ context: CallContext?,
        _ respond: MockResponse
    ) async -> Observed {
        let run = await StageHarness(stage).run(request, context: context, respond: respond)
        return observe(run.forwarded.map(\.request), run.outcome)
    }

    private static func viaPipeline(
        _ stage: any Stage,
        _ request: Request,
        _ context: CallContext?,
        _ respond: MockResponse
    ) async -> Observed {
        let transport = MockTransport(respond)
        let pipeline = Pipeline(serviceID: "harness", stages: [stage], transport: transport)
        let context = context ?? CallContext(serviceID: "harness", endpointName: "harness")
        let outcome: Result<Response, SwitchyardError>
        do {
            outcome = .success(try await pipeline.send(request, context: context))
        } catch {
            outcome = .failure(error)
        }
        return observe(transport.requests, outcome)
    }

    @Test("harness and pipeline agree", arguments: 0..<11)
    func agree(index: Int) async throws {
        let (name, stage, respond, context) = Self.cases[index]
        let request = try Request.fixture(.get, "https://api.test/agree")
        let harness = await Self.viaHarness(stage, request, context, respond)
        let pipeline = await Self.viaPipeline(stage, request, context, respond)
        #expect(harness == pipeline, "\(name)")
    }

    @Test("a request stage's own intercept is not used: prepare runs, in the harness as in the pipeline")
    func prepareWins() async throws {
        let run = await StageHarness(MarkWithIntercept()).run(try .fixture(.get, "https://api.test/x"))
        #expect(run.forwardedRequest?.headerFields[seen] == "prepare")
    }

    @Test("an opt-in stage runs in the harness only when the context enables it")
    func optInInHarness() async throws {
        let request = try Request.fixture(.get, "https://api.test/x")
        let off = await StageHarness(Mark().optIn()).run(request)
        let on = await StageHarness(Mark().optIn()).run(request, context: Self.enabled)
        #expect(off.forwardedRequest?.headerFields[seen] == nil)
        #expect(on.forwardedRequest?.headerFields[seen] == "prepare")
    }
}

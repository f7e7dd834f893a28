import Foundation
import HTTPTypes
import Testing

@testable import SwitchyardCore

/// The kernel alone: this target imports only SwitchyardCore, so the compiler proves the pipeline's
/// ordering stands without the features. `Pipeline.referenceSend` defines the order; the tuned chain
/// every call runs must give the same events and the same outcome.
@Suite("Pipeline order: the tuned chain against the reference fold")
struct PipelineOrderTests {
    /// How a run sends: through the reference fold, the tuned chain, or the tuned chain while
    /// recording a trace (which takes the recording paths of each link).
    enum Mode: CaseIterable {
        case reference, tuned, traced
    }

    @Test("random stage mixes: every stage sees the same, in the same order, and every call ends the same", arguments: 0..<4)
    func randomMixes(batch: Int) async throws {
        for index in 0..<100 {
            let seed = UInt64(batch * 100 + index)
            let mix = StageMix(seed: seed)
            let reference = await mix.run(.reference)
            for mode in [Mode.tuned, .traced] {
                let tuned = await mix.run(mode)
                #expect(tuned.events == reference.events, "seed \(seed) \(mode): \(mix.summary)")
                #expect(tuned.outcome == reference.outcome, "seed \(seed) \(mode): \(mix.summary)")
            }
        }
    }

    @Test("request stages run outermost first, response stages innermost first, a general stage around the rest", arguments: Mode.allCases)
    func order(mode: Mode) async {
        let log = EventLog()
        let stages: [any Stage] = [
            ProbeRequest(id: "A", log: log, fails: false),
            ProbeSyncResponse(id: "B", log: log, fails: false),
            ProbeIntercept(id: "C", log: log, behaviour: .pass),
            ProbeResponse(id: "D", log: log, fails: false),
            ProbeSyncRequest(id: "E", log: log, fails: false),
        ]
        let mix = StageMix(log: log, stages: stages)
        let run = await mix.run(mode)
        #expect(
            run.events == [
                "prepare A", "enter C", "prepare E", "transport 1 [A,C,E]", "process D 200", "leave C 200", "process B 200",
            ]
        )
        #expect(run.outcome == .answered(status: 200, trail: "A,C,E", back: "D,C,B", sends: 1))
    }

    @Test("a response stage's error names it and carries the answer it was given", arguments: Mode.allCases)
    func responseStageError(mode: Mode) async {
        let log = EventLog()
        let mix = StageMix(
            log: log,
            stages: [ProbeSyncResponse(id: "Outer", log: log, fails: false), ProbeResponse(id: "Check", log: log, fails: true)]
        )
        let run = await mix.run(mode)
        #expect(run.events == ["transport 1 []", "process Check 200"])
        #expect(run.outcome == .failed(code: "stageFailure", stage: "Check", message: "Check failed", carriesResponse: true, sends: 1))
    }

    @Test(
        "an opt-in stage runs only when enabled; a skipped service stage never runs; the call's own stages cannot be skipped",
        arguments: Mode.allCases
    )
    func selection(mode: Mode) async {
        let log = EventLog()
        let stages: [any Stage] = [
            ProbeSyncRequest(id: "Optional", log: log, fails: false).optIn(),
            ProbeRequest(id: "Skipped", log: log, fails: false),
            ProbeSyncRequest(id: "Kept", log: log, fails: false),
        ]
        let own = ProbeSyncRequest(id: "Own", log: log, fails: false)
        let mix = StageMix(log: log, stages: stages, additional: [own], skipped: ["Skipped", "Own"])
        #expect(await mix.run(mode).events == ["prepare Own", "prepare Kept", "transport 1 [Own,Kept]"])
        let enabled = StageMix(log: log, stages: stages, enabled: ["Optional"])
        #expect(
            await enabled.run(mode).events == [
                "prepare Optional", "prepare Skipped", "prepare Kept", "transport 1 [Optional,Skipped,Kept]",
            ]
        )
    }

    @Test("a redirect is followed inside one attempt; a failed send names the transport", arguments: Mode.allCases)
    func transportEnd(mode: Mode) async {
        let log = EventLog()
        let followed = StageMix(log: log, stages: [ProbeSyncRequest(id: "A", log: log, fails: false)], redirectsFirst: true)
        let run = await followed.run(mode)
        #expect(run.events == ["prepare A", "transport 1 [A]", "follow", "transport 2 [A]"])
        #expect(run.outcome == .answered(status: 200, trail: "A", back: nil, sends: 1))
        let failing = StageMix(log: log, stages: [ProbeResponse(id: "R", log: log, fails: false)], failing: [1])
        let failed = await failing.run(mode)
        #expect(failed.events == ["transport 1 []"])
        #expect(
            failed.outcome
                == .failed(code: "transport", stage: "transport", message: "transport send 1 failed", carriesResponse: false, sends: 1)
        )
    }
}

/// One pipeline of probe stages with a call's choices (skipped and enabled stages, the call's own
/// stages), runnable through the reference fold and the tuned chain.
struct StageMix: Sendable {
    let log: EventLog
    let transport: ProbeTransport
    let pipeline: Pipeline
    let additional: [any Stage]
    let skipped: Set<StageID>
    let enabled: Set<StageID>
    let summary: String

    init(
        log: EventLog,
        stages: [any Stage],
        additional: [any Stage] = [],
        skipped: Set<StageID> = [],
        enabled: Set<StageID> = [],
        failing: Set<Int> = [],
        redirectsFirst: Bool = false
    ) {
        self.log = log
        transport = ProbeTransport(log: log, failing: failing, redirectsFirst: redirectsFirst)
        pipeline = Pipeline(
            serviceID: "probe",
            stages: stages,
            transport: transport,
            follower: redirectsFirst ? ProbeFollower(log: log) : nil,
            serviceState: { _ in nil }
        )
        self.additional = additional
        self.skipped = skipped
        self.enabled = enabled
        summary =
            "\(pipeline) own \(additional.map(\.id)) skipped \(skipped.sorted()) enabled \(enabled.sorted()) failing \(failing.sorted()) redirect \(redirectsFirst)"
    }

    /// A random mix: up to 10 service stages of every kind (some opt-in, some failing), up to 2 of
    /// the call's own, random skips and enables, and a transport that may fail or redirect.
    init(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let log = EventLog()
        func stage(_ name: String) -> any Stage {
            let id = StageID(name)!
            let fails = Int.random(in: 0..<15, using: &random) == 0
            switch Int.random(in: 0..<9, using: &random) {
            case 0: return ProbeRequest(id: id, log: log, fails: fails)
            case 1: return ProbeSyncRequest(id: id, log: log, fails: fails)
            case 2: return ProbeResponse(id: id, log: log, fails: fails)
            case 3: return ProbeSyncResponse(id: id, log: log, fails: fails)
            case 4: return ProbeIntercept(id: id, log: log, behaviour: ProbeIntercept.Behaviour.allCases.randomElement(using: &random)!)
            case 5:
                return ClosureStage.request(id: id) { request, _ in
                    log.record("closure prepare \(name)")
                    append(name, to: trailField, in: &request.headerFields)
                }
            case 6:
                return ClosureStage.request(id: id) { request, _ in
                    await Task.yield()
                    log.record("closure prepare \(name)")
                    if fails { throw ProbeFailure(name: name) }
                    append(name, to: trailField, in: &request.headerFields)
                }
            case 7:
                return ClosureStage.response(id: id) { response, _, _ in
                    log.record("closure process \(name)")
                    if fails { throw ProbeFailure(name: name) }
                    append(name, to: backField, in: &response.headerFields)
                }
            default:
                return ClosureStage(id: id) { request, context, next in
                    log.record("closure enter \(name)")
                    let response = try await next(request, context)
                    log.record("closure leave \(name)")
                    return response
                }
            }
        }
        var stages: [any Stage] = []
        var skipped: Set<StageID> = []
        var enabled: Set<StageID> = []
        for index in 0..<Int.random(in: 0...10, using: &random) {
            let name = "s\(index)"
            var next = stage(name)
            if Int.random(in: 0..<6, using: &random) == 0 {
                next = optIn(next)
                if Bool.random(using: &random) { enabled.insert(StageID(name)!) }
            }
            if Int.random(in: 0..<6, using: &random) == 0 { skipped.insert(StageID(name)!) }
            stages.append(next)
        }
        let additional = (0..<Int.random(in: 0...2, using: &random)).map { stage("c\($0)") }
        var failing: Set<Int> = []
        if Int.random(in: 0..<6, using: &random) == 0 { failing.insert(1) }
        if Int.random(in: 0..<10, using: &random) == 0 { failing.insert(2) }
        let redirects = Int.random(in: 0..<5, using: &random) == 0
        self.init(
            log: log,
            stages: stages,
            additional: additional,
            skipped: skipped,
            enabled: enabled,
            failing: failing,
            redirectsFirst: redirects
        )
    }

    /// Sends one call in `mode`, with a fresh context and control, and returns what was seen.
    func run(_ mode: PipelineOrderTests.Mode) async -> (events: [String], outcome: ProbeOutcome) {
        transport.reset()
        _ = log.take()
        let control = mode == .traced ? CallControl(recordsTimings: false, trace: .diffs) : CallControl()
        let context = CallContext(
            requestID: .next(),
            serviceID: pipeline.serviceID,
            endpointName: "probe",
            tags: [],
            environment: .release,
            timeout: nil,
            deadlineOffset: nil,
            parameterEncoding: .automatic,
            skippedStages: skipped,
            enabledStages: enabled,
            logger: CallContext.disabledLogger,
            serviceState: nil,
            control: control
        )
        let request = Request(head: HTTPRequest(method: .get, scheme: "https", authority: "probe.test", path: "/"))
        let outcome: ProbeOutcome
        do {
            let response =
                mode == .reference
                ? try await pipeline.referenceSend(request, context: context, additionalStages: additional)
                : try await pipeline.send(request, context: context, additionalStages: additional)
            outcome = .answered(
                status: response.status.code,
                trail: response.headerFields[trailField],
                back: response.headerFields[backField],
                sends: control.transportSends
            )
        } catch {
            // Both sends throw only `SwitchyardError`.
            outcome = .failed(
                code: error.code.rawValue,
                stage: error.stage?.rawValue,
                message: error.message,
                carriesResponse: error.response != nil,
                sends: control.transportSends
            )
        }
        return (log.take(), outcome)
    }
}

/// The stage marked opt-in, whatever its concrete type.
func optIn(_ stage: some Stage) -> any Stage { stage.optIn() }

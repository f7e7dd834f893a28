import Synchronization

/// Collects one call's stage timings as its pipeline runs, in the order stages are entered.
package final class StageTimingRecorder: Sendable {
    private let entries = Mutex<[StageTiming]>([])
    /// What the stages did to the call, when it is traced (``PipelineTrace``): recorded where the
    /// timings are, so that a call that is not traced pays nothing for it.
    package let tracer: StageTraceRecorder?
    /// Whether the call asked for its timings (rather than only for a trace, which records them too):
    /// only then are they logged.
    package let isRequested: Bool

    package init(tracer: StageTraceRecorder? = nil, isRequested: Bool = true) {
        self.tracer = tracer
        self.isRequested = isRequested
    }

    /// Reserves the entry of a stage as it is first entered (a stage entered again, on a retry, adds
    /// to its entry); returns its index.
    package func enter(_ stage: StageID) -> Int {
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.stage == stage }) { return index }
            entries.append(StageTiming(stage: stage, inbound: .zero, outbound: .zero))
            return entries.count - 1
        }
    }

    /// Reserves the entry of a response stage as a request passes it, and opens its trace step when
    /// the call is traced (-1 when it is not).
    package func enter(_ stage: StageID, tracing attempt: Int) -> (timing: Int, step: Int) {
        (enter(stage), tracer?.open(stage, attempt: attempt, request: nil, handedOver: true) ?? -1)
    }

    /// Adds to the entry at `index`.
    package func add(_ index: Int, inbound: Duration = .zero, outbound: Duration = .zero) {
        entries.withLock { entries in
            entries[index].inbound += inbound
            entries[index].outbound += outbound
        }
    }

    /// What has been recorded so far.
    package var timings: StageTimings { StageTimings(entries: entries.withLock { $0 }) }
}

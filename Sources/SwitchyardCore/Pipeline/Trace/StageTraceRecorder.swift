package import Foundation
import HTTPTypes
import Synchronization

/// Collects what one call's stages did, as its pipeline runs, when the call is traced: each stage's
/// messages as it received and passed them, kept as they were (secrets included, in memory only,
/// for the call's life) and turned into a redacted ``PipelineTrace`` when the call ends.
package final class StageTraceRecorder: Sendable {
    /// How much the trace keeps.
    package let detail: PipelineTrace.Detail
    /// The rules every value of the trace passes: the service's log redaction.
    package let redaction: Redaction
    private let steps = Mutex<[Step]>([])

    package init(detail: PipelineTrace.Detail, redaction: Redaction) {
        self.detail = detail
        self.redaction = redaction
    }

    /// A body as the trace keeps it: bytes are kept (a copy-on-write reference), a stream or a file
    /// only noted — keeping a stream would keep its connection alive.
    package enum Body: Sendable {
        case none
        case bytes(Data)
        case stream
        case file(Int)

        init(_ body: Request.Body?) {
            switch body {
            case nil: self = .none
            case .bytes(let data): self = .bytes(data)
            case .stream: self = .stream
            }
        }

        init(_ body: Response.Body) {
            switch body {
            case .bytes(let data): self = .bytes(data)
            case .file(let file): self = .file(Int(file.byteCount))
            case .stream: self = .stream
            }
        }
    }

    /// One stage's run, as recorded.
    package struct Step: Sendable {
        package var stage: StageID
        package var attempt: Int
        var requestIn: (head: HTTPRequest, body: Body)?
        var requestOut: (head: HTTPRequest, body: Body)?
        var responseIn: (head: HTTPResponse, body: Body)?
        var responseOut: (head: HTTPResponse, body: Body)?
        package var duration: Duration = .zero
        package var handOvers = 0
        package var error: SwitchyardError?
    }

    /// Opens the step of `stage` as it receives `request` (`nil` for a response stage, which does not
    /// see the request change, and always hands it on once: `handedOver`); returns its index.
    package func open(_ stage: StageID, attempt: Int, request: Request?, handedOver: Bool = false) -> Int {
        let received = request.map { ($0.head, Body($0.body)) }
        return steps.withLock { steps in
            steps.append(Step(stage: stage, attempt: attempt, requestIn: received, handOvers: handedOver ? 1 : 0))
            return steps.count - 1
        }
    }

    /// Notes that the step's stage passed `request` on (or, with `nil`, passed the request on
    /// unchanged).
    func handOver(_ index: Int, _ request: Request?) {
        let passed = request.map { ($0.head, Body($0.body)) }
        steps.withLock { steps in
            steps[index].handOvers += 1
            if let passed { steps[index].requestOut = passed }
        }
    }

    /// Notes the response that came back to the step's stage.
    package func received(_ index: Int, _ response: Response) {
        let received = (response.head, Body(response.body))
        steps.withLock { $0[index].responseIn = received }
    }

    /// Closes the step: the response the stage returned, or the error it threw, and its own time.
    package func close(_ index: Int, response: Response?, error: (any Error)?, duration: Duration) {
        let returned = response.map { ($0.head, Body($0.body)) }
        let failure = error.map { SwitchyardError.wrapping($0) }
        steps.withLock { steps in
            steps[index].responseOut = returned
            steps[index].error = failure
            steps[index].duration += duration
        }
    }

    /// What has been recorded so far.
    package var recorded: [Step] { steps.withLock { $0 } }

    /// The trace recorded so far, redacted; steps from `index` on only.
    package func trace(from index: Int = 0) -> PipelineTrace {
        let steps = recorded
        return TraceBuilder(redaction: redaction, detail: detail).trace(Array(steps[min(index, steps.count)...]))
    }

    /// How many steps have been opened: where a stage that wants the steps inside it starts reading.
    package var count: Int { steps.withLock { $0.count } }
}

import HTTPTypes
import Switchyard

/// The benchmarked Switchyard stage: sets one header field without waiting — as a user writes a stage
/// that never waits, a `ClosureStage.request` whose closure does not `await` (the pipeline's
/// synchronous fast path).
struct HeaderStage: Sendable {
    let field: HTTPField.Name
    let value: String
    let index: Int

    init(index: Int) {
        field = HTTPField.Name("x-stage-\(index)")!
        value = "value-\(index)"
        self.index = index
    }

    /// Sets the field: what the stage does, called in place by ``StageCallFloor``.
    @inline(__always)
    func apply(_ request: inout Request) {
        request.headerFields[field] = value
    }

    /// The stage as a pipeline registers it.
    var stage: ClosureStage {
        let field = field
        let value = value
        return ClosureStage.request(id: StageID("header-\(index)")!) { request, _ in request.headerFields[field] = value }
    }
}

/// The same stage written as an `async` ``RequestStage`` (`chain --async-stages`): what each stage's
/// asynchronous frame costs.
struct AsyncHeaderStage: RequestStage {
    let stage: HeaderStage

    init(index: Int) {
        stage = HeaderStage(index: index)
    }

    func prepare(_ request: inout Request, context: CallContext) async throws {
        request.headerFields[stage.field] = stage.value
    }
}

/// A stage that does nothing, without waiting: measures what the chain itself costs per stage.
enum NoopStage {
    /// The stage for position `index`.
    static func stage(_ index: Int) -> ClosureStage {
        ClosureStage.request(id: StageID("noop-\(index)")!) { _, _ in }
    }
}

/// ``NoopStage`` as an `async` ``RequestStage`` (`--noop-stages --async-stages`).
struct AsyncNoopStage: RequestStage {
    func prepare(_ request: inout Request, context: CallContext) async throws {}
}

import HTTPTypes
import Switchyard

/// The benchmarked Switchyard stage: sets one header field, synchronously — as a user writes a stage
/// that never waits.
struct HeaderStage: SynchronousRequestStage {
    let field: HTTPField.Name
    let value: String

    init(index: Int) {
        field = HTTPField.Name("x-stage-\(index)")!
        value = "value-\(index)"
    }

    func prepareSynchronously(_ request: inout Request, context: CallContext) throws {
        request.headerFields[field] = value
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

/// A stage that does nothing: measures what the chain itself costs per stage.
struct NoopStage: SynchronousRequestStage {
    func prepareSynchronously(_ request: inout Request, context: CallContext) throws {}
}

/// ``NoopStage`` as an `async` ``RequestStage`` (`--noop-stages --async-stages`).
struct AsyncNoopStage: RequestStage {
    func prepare(_ request: inout Request, context: CallContext) async throws {}
}

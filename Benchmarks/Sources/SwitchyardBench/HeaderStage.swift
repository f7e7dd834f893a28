import HTTPTypes
import Switchyard

/// The benchmarked Switchyard stage: sets one header field.
struct HeaderStage: RequestStage {
    let field: HTTPField.Name
    let value: String
    let name: String

    init(index: Int) {
        field = HTTPField.Name("x-stage-\(index)")!
        value = "value-\(index)"
        name = "header-\(index)"
    }

    func prepare(_ request: inout Request, context: CallContext) async throws {
        request.headerFields[field] = value
    }
}

/// A stage that does nothing: measures what the chain itself costs per stage.
struct NoopStage: RequestStage {
    func prepare(_ request: inout Request, context: CallContext) async throws {}
}

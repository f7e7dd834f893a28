import HTTPTypes
import Switchyard

/// What calling `chain`'s stages costs with none of the pipeline's machinery: the same request and
/// context a pipeline call starts from, and the same N ``HeaderStage``s called in place one after
/// another, as the pipeline's run of request stages calls them — no fold, no skip or timing checks,
/// no error wrapping, no transport and no response. Measured in every round, between the contenders.
struct StageCallFloor: Sendable {
    /// The stages as `chain` registers them, each called through its `async` requirement.
    let stages: [any RequestStage]
    /// The same stages as synchronous stages (`nil` with `--async-stages`), called as the pipeline
    /// calls them: as plain functions.
    let synchronous: [any SynchronousRequestStage]?

    init(stages: Int, asynchronous: Bool) {
        if asynchronous {
            self.stages = (0..<stages).map { AsyncHeaderStage(index: $0) }
            self.synchronous = nil
        } else {
            let synchronous = (0..<stages).map { HeaderStage(index: $0) as any SynchronousRequestStage }
            self.stages = synchronous
            self.synchronous = synchronous
        }
    }

    /// Nanoseconds per request over `requests` requests.
    func measure(requests: Int) async throws -> Double {
        let service = ServiceID("bench")!
        var total = 0
        let start = ContinuousClock.now
        for index in 0..<requests {
            var request = Switchyard.Request(
                head: HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/users/\(index & 1)")
            )
            let context = CallContext(serviceID: service)
            if let synchronous {
                for position in synchronous.indices { try Self.prepare(synchronous, position, &request, context) }
            } else {
                for position in stages.indices { try await stages[position].prepare(&request, context: context) }
            }
            total &+= request.headerFields.count
        }
        let elapsed = ContinuousClock.now - start
        precondition(total == stages.count &* requests)
        return Statistics.seconds(elapsed) * 1e9 / Double(requests)
    }

    /// Calls one synchronous stage in place, from a synchronous frame (so that its synchronous
    /// `prepare` is the one called).
    @inline(__always)
    private static func prepare(
        _ stages: [any SynchronousRequestStage],
        _ position: Int,
        _ request: inout Switchyard.Request,
        _ context: CallContext
    ) throws {
        try stages[position].prepare(&request, context: context)
    }
}

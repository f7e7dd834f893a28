import HTTPTypes
import Switchyard

/// What calling `chain`'s stages costs with none of the pipeline's machinery: the same request and
/// context a pipeline call starts from, and the same N ``HeaderStage``s called in place one after
/// another, as the pipeline's run of request stages calls them — no fold, no skip or timing checks,
/// no error wrapping, no transport and no response. Measured in every round, between the contenders.
struct StageCallFloor: Sendable {
    /// The stages as `chain --async-stages` registers them, each called through its `async`
    /// requirement; empty for synchronous stages.
    let asynchronous: [any RequestStage]
    /// The stages as `chain` registers them by default, called as the pipeline calls them: through
    /// their synchronous method, as plain functions; empty with `--async-stages`.
    let synchronous: [HeaderStage]

    init(stages: Int, asynchronous: Bool) {
        self.asynchronous = asynchronous ? (0..<stages).map { AsyncHeaderStage(index: $0) } : []
        self.synchronous = asynchronous ? [] : (0..<stages).map { HeaderStage(index: $0) }
    }

    /// Nanoseconds per request over `requests` requests.
    func measure(requests: Int) async throws -> Double {
        let service: ServiceID = "bench"
        var total = 0
        let start = ContinuousClock.now
        for index in 0..<requests {
            var request = Switchyard.Request(
                head: HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/users/\(index & 1)")
            )
            let context = CallContext(serviceID: service)
            for position in synchronous.indices { synchronous[position].apply(&request) }
            for position in asynchronous.indices { try await asynchronous[position].prepare(&request, context: context) }
            total &+= request.headerFields.count
        }
        let elapsed = ContinuousClock.now - start
        precondition(total == (synchronous.count + asynchronous.count) &* requests)
        return Statistics.seconds(elapsed) * 1e9 / Double(requests)
    }
}

import ArgumentParser
import Foundation
import HTTPTypes
import MallocInterposerSwift
@_spi(Generated) import OpenAPIRuntime
import Switchyard

/// `chain --stages N`: N header-setting stages over an in-memory transport, Switchyard's pipeline
/// against swift-openapi-runtime's `ClientMiddleware` chain (through `UniversalClient`), both driven
/// from a task off the main actor, rounds interleaved.
struct ChainScenario: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "chain", abstract: "In-memory middleware chain cost per request.")

    @Option(help: "Number of header-setting stages.") var stages = 8
    @Option(help: "Requests per round.") var requests = 100_000
    @Option(help: "Rounds per contender (the median is reported).") var rounds = 7
    @Flag(help: "Measure Switchyard only (for profiling).") var switchyardOnly = false
    @Flag(help: "Use stages that do nothing, to measure the chain's own cost (for profiling).") var noopStages = false
    @Flag(help: "Measure the whole client call only, not the pipeline alone nor the peer (for profiling).") var clientOnly = false
    @Flag(help: "Measure the pipeline only, not the whole client call nor the peer (for profiling).") var pipelineOnly = false
    @Flag(help: "Register the header stages as async RequestStages instead of closure stages that do not await.") var asyncStages = false
    @OptionGroup var alone: ContenderOptions

    /// The contenders `--contender` can run alone, by the names the scenario prints.
    static let contenders = ["switchyard", "switchyard-client", "switchyard-client-traced", "openapi-runtime", "floor", "stage-calls"]

    func validate() throws { try alone.validate(among: Self.contenders) }

    func run() async throws {
        if let contender = alone.contender {
            try await runAlone(contender)
            return
        }
        let stageCount = stages
        let requestCount = requests
        let roundCount = rounds
        let onlyOurs = switchyardOnly || clientOnly || pipelineOnly
        let onlyClient = clientOnly
        let onlyPipeline = pipelineOnly
        let noop = noopStages
        let asynchronous = asyncStages
        let fieldFloor = FieldFloor(stages: stageCount)
        let callFloor = StageCallFloor(stages: stageCount, asynchronous: asynchronous)
        let (ours, client, peer, floor, calls) = try await Task.detached {
            let switchyard = try SwitchyardChain(stages: stageCount, noop: noop, asynchronous: asynchronous)
            let openAPI = OpenAPIChain(stages: stageCount)
            if !onlyClient { _ = try await switchyard.measurePipeline(requests: requestCount / 10) }
            if !onlyPipeline { _ = try await switchyard.measureClient(requests: requestCount / 10) }
            if !onlyOurs { _ = try await openAPI.measure(requests: requestCount / 10) }
            var ours: [Double] = []
            var client: [Double] = []
            var peer: [Double] = []
            var floor: [Double] = []
            var calls: [Double] = []
            if !onlyOurs {
                _ = fieldFloor.measure(requests: requestCount / 10)
                _ = try await callFloor.measure(requests: requestCount / 10)
            }
            for _ in 0..<roundCount {
                ours.append(onlyClient ? .nan : try await switchyard.measurePipeline(requests: requestCount))
                client.append(onlyPipeline ? .nan : try await switchyard.measureClient(requests: requestCount))
                peer.append(onlyOurs ? .nan : try await openAPI.measure(requests: requestCount))
                floor.append(onlyOurs ? .nan : fieldFloor.measure(requests: requestCount))
                calls.append(onlyOurs ? .nan : try await callFloor.measure(requests: requestCount))
            }
            return (ours, client, peer, floor, calls)
        }.value
        // Allocations per call, counted in a round of their own (counting costs time).
        let allocations = try await Task.detached {
            let switchyard = try SwitchyardChain(stages: stageCount, noop: noop, asynchronous: asynchronous)
            let openAPI = OpenAPIChain(stages: stageCount)
            return (
                try await Allocations.perCall(requests: 10_000) { _ = try await switchyard.measureClient(requests: 10_000) },
                onlyOurs ? nil : try await Allocations.perCall(requests: 10_000) { _ = try await openAPI.measure(requests: 10_000) }
            )
        }.value
        print("switchyard stages=\(stages) \(Statistics.format(Statistics.median(ours))) ns/request")
        print("openapi-runtime stages=\(stages) \(Statistics.format(Statistics.median(peer))) ns/request")
        print("switchyard-client stages=\(stages) \(Statistics.format(Statistics.median(client))) ns/request")
        print("floor stages=\(stages) \(Statistics.format(Statistics.median(floor))) ns/request")
        print("stage-calls stages=\(stages) \(Statistics.format(Statistics.median(calls))) ns/request")
        // Each ratio is the median of the rounds' own ratios: a round measures every contender within
        // moments, so a slow spell of the shared machine moves both sides of its ratio together.
        func ratio(_ ours: [Double]) -> String {
            Statistics.format(Statistics.median(zip(ours, peer).map { $0 / $1 }), decimals: 3)
        }
        print("ratio switchyard/openapi-runtime \(ratio(ours))")
        print("ratio floor/openapi-runtime \(ratio(floor))")
        print("ratio stage-calls/openapi-runtime \(ratio(calls))")
        print("ratio switchyard-client/openapi-runtime \(ratio(client))")
        if let ours = allocations.0 {
            print("switchyard-client allocations \(Statistics.format(ours)) mallocs/request")
            if let theirs = allocations.1 { print("openapi-runtime allocations \(Statistics.format(theirs)) mallocs/request") }
        } else {
            print("allocations not counted: run with LD_PRELOAD=<Benchmarks/.build/release>/libMallocInterposerSwift.so")
        }
    }

    /// `--contender`: one contender alone, built as in the interleaved run, for exactly `--requests` calls.
    private func runAlone(_ contender: String) async throws {
        let (stageCount, noop, asynchronous) = (stages, noopStages, asyncStages)
        let (warmup, calls) = (alone.warmup, requests)
        try await Task.detached {
            let measure: (Int) async throws -> Double
            switch contender {
            case "switchyard":
                measure = try SwitchyardChain(stages: stageCount, noop: noop, asynchronous: asynchronous).measurePipeline
            case "switchyard-client":
                measure = try SwitchyardChain(stages: stageCount, noop: noop, asynchronous: asynchronous).measureClient
            case "switchyard-client-traced":
                measure = try SwitchyardChain(stages: stageCount, noop: noop, asynchronous: asynchronous).measureTracedClient
            case "openapi-runtime": measure = OpenAPIChain(stages: stageCount).measure
            case "floor": measure = FieldFloor(stages: stageCount).measure
            default: measure = StageCallFloor(stages: stageCount, asynchronous: asynchronous).measure
            }
            try await ContenderOptions.run(contender, warmup: warmup, calls: calls, measure)
        }.value
    }
}

/// Switchyard's side: a registered service with N header stages and an in-memory transport.
///
/// Two measurements: the pipeline (a request and a context made per call, as the peer's serializer
/// makes its request per call, sent through the service's folded pipeline — the work the peer's
/// `UniversalClient` does), and the whole client call (registry lookup, path template, parameter
/// encoding, status check and result metadata on top).
struct SwitchyardChain: Sendable {
    let client: APIClient
    let pipeline: Pipeline

    init(stages: Int, noop: Bool = false, asynchronous: Bool = false) throws {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(
            Service(
                ServiceID("bench"),
                baseURL: "https://api.example.com",
                stages: (0..<stages).map {
                    Self.stage($0, noop: noop, asynchronous: asynchronous)
                },
                transport: SwitchyardInMemoryTransport()
            )
        )
        client = APIClient(registry: registry)
        pipeline = try registry.pipeline(for: ServiceID("bench"))
    }

    /// Stage `index` of the chain: a header stage or a no-op, synchronous or `async`.
    static func stage(_ index: Int, noop: Bool, asynchronous: Bool) -> any Stage {
        switch (noop, asynchronous) {
        case (true, true): AsyncNoopStage()
        case (true, false): NoopStage.stage(index)
        case (false, true): AsyncHeaderStage(index: index)
        case (false, false): HeaderStage(index: index).stage
        }
    }

    /// Nanoseconds per request through the pipeline.
    func measurePipeline(requests: Int) async throws -> Double {
        let service: ServiceID = "bench"
        var statusSum = 0
        let start = ContinuousClock.now
        for index in 0..<requests {
            let request = Switchyard.Request(
                head: HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/users/\(index & 1)")
            )
            let response = try await pipeline.send(request, context: CallContext(serviceID: service))
            statusSum &+= response.status.code
        }
        let elapsed = ContinuousClock.now - start
        precondition(statusSum == 200 &* requests)
        return Statistics.seconds(elapsed) * 1e9 / Double(requests)
    }

    /// Nanoseconds per request through the whole client call.
    func measureClient(requests: Int) async throws -> Double {
        try await measureClient(requests: requests, options: nil)
    }

    /// The whole client call with a per-stage trace (``CallOptions/trace``): what tracing costs.
    func measureTracedClient(requests: Int) async throws -> Double {
        var options = CallOptions()
        options.trace = .diffs
        return try await measureClient(requests: requests, options: options)
    }

    /// The call every client measurement sends: `GET /users/1` of the `bench` service.
    static let userEndpoint = DynamicEndpoint<Switchyard.Response>(
        service: "bench",
        method: .get,
        path: "/users/{id}",
        pathParameters: ["id": "1"]
    )

    private func measureClient(requests: Int, options: CallOptions?) async throws -> Double {
        let endpoint = Self.userEndpoint
        var statusSum = 0
        let start = ContinuousClock.now
        for _ in 0..<requests {
            statusSum &+= try await client.send(endpoint, options: options).status.code
        }
        let elapsed = ContinuousClock.now - start
        precondition(statusSum == 200 &* requests)
        return Statistics.seconds(elapsed) * 1e9 / Double(requests)
    }
}

/// The peer's side: `UniversalClient` with N `ClientMiddleware`s and an in-memory transport.
struct OpenAPIChain: Sendable {
    let client: UniversalClient

    init(stages: Int) {
        client = UniversalClient(
            serverURL: URL(string: "https://api.example.com")!,
            transport: OpenAPIInMemoryTransport(),
            middlewares: (0..<stages).map { OpenAPIHeaderMiddleware(index: $0) }
        )
    }

    /// Nanoseconds per request over `requests` sequential calls.
    func measure(requests: Int) async throws -> Double {
        var statusSum = 0
        let start = ContinuousClock.now
        for index in 0..<requests {
            statusSum &+= try await client.send(
                input: index & 1,
                forOperation: "getUser",
                serializer: { id in (HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/users/\(id)"), nil) },
                deserializer: { response, body in
                    if let body { _ = try await Data(collecting: body, upTo: 1 << 20) }
                    return response.status.code
                }
            )
        }
        let elapsed = ContinuousClock.now - start
        precondition(statusSum == 200 &* requests)
        return Statistics.seconds(elapsed) * 1e9 / Double(requests)
    }
}

/// The work both contenders must do, with no pipeline at all: make the `HTTPRequest` and set N
/// header fields on it, synchronously. No chain can cost less than this on the same work. Measured
/// in every round, between the contenders, so that its ratio to them holds within one run.
struct FieldFloor {
    let names: [HTTPField.Name]
    let values: [String]

    init(stages: Int) {
        names = (0..<stages).map { HTTPField.Name("x-stage-\($0)")! }
        values = (0..<stages).map { "value-\($0)" }
    }

    /// Nanoseconds per request over `requests` requests.
    func measure(requests: Int) -> Double {
        var total = 0
        let start = ContinuousClock.now
        for index in 0..<requests {
            var request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/users/\(index & 1)")
            for field in 0..<names.count { request.headerFields[names[field]] = values[field] }
            total &+= request.headerFields.count
        }
        let elapsed = ContinuousClock.now - start
        precondition(total == names.count &* requests)
        return Statistics.seconds(elapsed) * 1e9 / Double(requests)
    }
}

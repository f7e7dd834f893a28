import ArgumentParser
import Foundation
import HTTPTypes
import Switchyard

/// `scale --contender AXIS --point N`: the whole client call's cost at one point of a growth axis, so
/// `Scripts/instructions.sh scale AXIS -- --point N` gives one point of a curve. The axes:
///
/// - `stages`: N header stages in the service's pipeline (linear, the slope is the per-stage cost);
/// - `services`: N registered services, calls spread over all of them;
/// - `tags`: N tags on every call;
/// - `inflight`: N calls in flight at once (N tasks, each call's transport yielding once, so every
///   call is outstanding while the others start);
/// - `memory-cache` / `disk-cache`: a cache holding N entries, every measured call a hit;
/// - `json`: an N-byte envelope through null stripping and decoding.
///
/// Everything runs in this process over an in-memory transport: no server, no network.
struct ScaleScenario: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "scale", abstract: "Per-call cost along growth axes (instructions.sh).")

    @Option(help: "The point on the axis (stages, services, tags, calls in flight, cache entries or JSON bytes).") var point = 1
    @Option(help: "Calls measured.") var requests = 2_000
    @OptionGroup var alone: ContenderOptions

    static let contenders = ["stages", "services", "tags", "inflight", "memory-cache", "disk-cache", "json"]

    func validate() throws {
        try alone.validate(among: Self.contenders)
        guard alone.contender != nil else {
            throw ValidationError("scale needs --contender AXIS: \(Self.contenders.joined(separator: ", "))")
        }
        guard point >= 0 else { throw ValidationError("--point must not be negative") }
    }

    func run() async throws {
        let (axis, point, warmup, calls) = (alone.contender ?? "", point, alone.warmup, requests)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-bench-scale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Task.detached {
            let measure: (Int) async throws -> Double
            switch axis {
            case "stages": measure = try SwitchyardChain(stages: point).measureClient
            case "services": measure = try ServicesAxis(services: max(point, 1)).measure
            case "tags": measure = try TagsAxis(tags: point).measure
            case "inflight": measure = try InFlightAxis(inFlight: max(point, 1)).measure
            case "memory-cache": measure = try await CacheAxis(entries: max(point, 1), directory: nil).measure
            case "disk-cache": measure = try await CacheAxis(entries: max(point, 1), directory: directory).measure
            default: measure = try JSONAxis(bytes: max(point, 64)).measure
            }
            try await ContenderOptions.run("\(axis)@\(point)", warmup: warmup, calls: calls, measure)
        }.value
    }
}

/// Nanoseconds per call of `count` calls of `call`, checking each answered `200`.
private func timed(_ count: Int, _ call: (Int) async throws -> Int) async throws -> Double {
    var statusSum = 0
    let start = ContinuousClock.now
    for index in 0..<count { statusSum &+= try await call(index) }
    precondition(statusSum == 200 &* count)
    return Statistics.seconds(ContinuousClock.now - start) * 1e9 / Double(max(count, 1))
}

/// N services of one header stage each; call `i` goes to service `i % N`.
private struct ServicesAxis: Sendable {
    let client: APIClient
    let endpoints: [DynamicEndpoint<Switchyard.Response>]

    init(services: Int) throws {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        var endpoints: [DynamicEndpoint<Switchyard.Response>] = []
        for index in 0..<services {
            let id = try ServiceID(validating: "service-\(index)")
            try registry.register(
                Service(
                    id,
                    baseURL: "https://api.example.com",
                    stages: [HeaderStage(index: 0).stage],
                    transport: SwitchyardInMemoryTransport()
                )
            )
            endpoints.append(DynamicEndpoint(service: id, method: .get, path: "/users/{id}", pathParameters: ["id": "1"]))
        }
        client = APIClient(registry: registry)
        self.endpoints = endpoints
    }

    func measure(_ count: Int) async throws -> Double {
        try await timed(count) { try await client.send(endpoints[$0 % endpoints.count]).status.code }
    }
}

/// One service; every call carries N tags.
private struct TagsAxis: Sendable {
    let chain: SwitchyardChain
    let options: CallOptions

    init(tags: Int) throws {
        chain = try SwitchyardChain(stages: 1)
        options = CallOptions(tags: Set((0..<tags).map { RequestTag("tag-\($0)") }))
    }

    func measure(_ count: Int) async throws -> Double {
        let endpoint = SwitchyardChain.userEndpoint
        return try await timed(count) { _ in try await chain.client.send(endpoint, options: options).status.code }
    }
}

/// N tasks sending at once through one service whose transport yields once per call.
private struct InFlightAxis: Sendable {
    let client: APIClient
    let inFlight: Int

    /// Answers after yielding once, so that a call is still in flight while the others start.
    struct YieldingTransport: Switchyard.Transport {
        var observesCallCancellation: Bool { true }
        func send(_ request: Switchyard.Request, context: CallContext) async throws -> Switchyard.Response {
            await Task.yield()
            return Switchyard.Response(status: .ok, headerFields: [.contentType: "application/json"], body: InMemoryPayload.data)
        }
    }

    init(inFlight: Int) throws {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(
            Service("bench", baseURL: "https://api.example.com", stages: [HeaderStage(index: 0).stage], transport: YieldingTransport())
        )
        client = APIClient(registry: registry)
        self.inFlight = inFlight
    }

    /// `count` calls, spread over `min(inFlight, count)` tasks started together.
    func measure(_ count: Int) async throws -> Double {
        let endpoint = SwitchyardChain.userEndpoint
        let workers = max(1, min(inFlight, count))
        let client = client
        let start = ContinuousClock.now
        let statusSum = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<workers {
                let share = count / workers + (worker < count % workers ? 1 : 0)
                group.addTask {
                    var sum = 0
                    for _ in 0..<share { sum &+= try await client.send(endpoint).status.code }
                    return sum
                }
            }
            return try await group.reduce(0, &+)
        }
        precondition(statusSum == 200 &* count)
        return Statistics.seconds(ContinuousClock.now - start) * 1e9 / Double(max(count, 1))
    }
}

/// A cache holding N entries (in memory, or on disk with no memory tier), filled through the client
/// before measuring; every measured call is a hit on one of 64 of them.
private struct CacheAxis: Sendable {
    let client: APIClient
    let options: CallOptions
    let source: ResponseSource
    let hot: Int

    /// Answers `200` with a body fresh for an hour.
    struct CacheableTransport: Switchyard.Transport {
        var observesCallCancellation: Bool { true }
        func send(_ request: Switchyard.Request, context: CallContext) async throws -> Switchyard.Response {
            Switchyard.Response(
                status: .ok,
                headerFields: [.contentType: "application/json", .cacheControl: "max-age=3600"],
                body: InMemoryPayload.data
            )
        }
    }

    init(entries: Int, directory: URL?) async throws {
        let cache =
            if let directory {
                try ResponseCache(memoryBudget: 0, directory: directory, diskBudget: 1 << 34)
            } else {
                try ResponseCache(memoryBudget: 1 << 34)
            }
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(
            Service("bench", baseURL: "https://api.example.com", stages: [CacheStage(cache: cache)], transport: CacheableTransport())
        )
        client = APIClient(registry: registry)
        var options = CallOptions()
        options.cache(.cacheElseNetwork(maxAge: .seconds(3600)))
        self.options = options
        source = directory == nil ? .memoryCache : .diskCache
        hot = min(entries, 64)
        for index in 0..<entries { _ = try await client.send("bench", .get, "/items/\(index)", options: options) }
    }

    func measure(_ count: Int) async throws -> Double {
        try await timed(count) { index in
            let result = try await client.send("bench", .get, "/items/\(index % hot)", options: options)
            precondition(result.source == source, "expected \(source), got \(result.source)")
            return result.status.code
        }
    }
}

/// An N-byte envelope with a third of its members `null`, through null stripping and the envelope
/// check, decoded into the page it carries.
private struct JSONAxis: Sendable {
    let client: APIClient

    struct Page: Decodable, Sendable {
        struct User: Decodable, Sendable {
            let id: Int
            let name: String
            let email: String
            let score: Double
            let verified: Bool
        }
        let page: Int
        let items: [User]
    }

    struct EnvelopeTransport: Switchyard.Transport {
        let body: Data
        var observesCallCancellation: Bool { true }
        func send(_ request: Switchyard.Request, context: CallContext) async throws -> Switchyard.Response {
            Switchyard.Response(status: .ok, headerFields: [.contentType: "application/json"], body: body)
        }
    }

    init(bytes: Int) throws {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(
            Service(
                "bench",
                baseURL: "https://api.example.com",
                stages: [NullStrippingStage(), EnvelopeStage(successCodes: [0])],
                transport: EnvelopeTransport(body: SanitizeScenario.envelope(approximateBytes: bytes))
            )
        )
        client = APIClient(registry: registry)
    }

    func measure(_ count: Int) async throws -> Double {
        try await timed(count) { _ in
            let result = try await client.send("bench", .get, "/page", as: Page.self)
            precondition(!result.value.items.isEmpty)
            return result.status.code
        }
    }
}

import ArgumentParser
import AsyncHTTPClient
import BenchSampleBackend
import Foundation
import NIOCore
import Switchyard
import SwitchyardAsyncHTTPClient

/// `loopback --concurrency C --requests R`: throughput against the embedded sample backend on
/// 127.0.0.1, raw AsyncHTTPClient against Switchyard with 8 header-setting stages and against
/// Switchyard with the full pipeline (``FullPipelineContender``), all over the same `HTTPClient`,
/// rounds interleaved so all see the same machine conditions (each round starts with the next
/// contender, so that none always runs first).
struct LoopbackScenario: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "loopback", abstract: "Requests per second against the sample backend.")

    @Option(help: "Concurrent requests in flight.") var concurrency = 32
    @Option(help: "Requests per round.") var requests = 20_000
    @Option(help: "Rounds per contender (the median is reported).") var rounds = 5
    @Option(help: "Header-setting stages in the Switchyard pipeline.") var stages = 8
    @Flag(help: "Measure raw AsyncHTTPClient against itself, to see the harness's own bias.") var selfCheck = false
    @Flag(help: "Measure the AsyncHTTPClient transport alone, without the client and pipeline (for profiling).") var transportOnly = false
    @Flag(help: "Run only the full-pipeline contender and print its rate (for profiling).") var fullOnly = false
    @Flag(help: "Run only the header-stages contender and print its rate (for profiling).") var headersOnly = false
    @Flag(help: "Run only the hand-written shop client (the full pipeline's floor) and print its rate (for profiling).")
    var handWrittenOnly = false
    @Flag(help: "Run only raw AsyncHTTPClient, or with --transport-only its delegate interface, and print its rate (for profiling).")
    var rawOnly = false
    @Flag(help: "With --raw-only: raw AsyncHTTPClient sending the stages' header fields (raw-ahc+headers).") var withHeaders = false
    @Flag(help: "With --raw-only: raw AsyncHTTPClient sending the pre-sealed, pre-signed order (raw-ahc-shop).") var shop = false
    @Option(help: "Comma-separated stage names to leave out of the full pipeline (to attribute its cost).") var dropStages = ""
    @OptionGroup var alone: ContenderOptions

    /// The contenders `--contender` can run alone, by the names the scenario prints (`switchyard` is
    /// `switchyard pipeline=headers`, `switchyard-full` is `switchyard pipeline=full`, `transport` is
    /// `AsyncHTTPClientTransport` alone).
    static let contenders = [
        "raw-ahc", "switchyard", "raw-ahc+headers", "raw-ahc+fields", "switchyard-full", "raw-ahc-shop", "raw-ahc-delegate",
        "hand-written-shop", "transport",
    ]

    func validate() throws {
        try alone.validate(among: Self.contenders)
        if alone.contender != nil {
            if [selfCheck, transportOnly, fullOnly, headersOnly, handWrittenOnly, rawOnly, withHeaders, shop].contains(true) {
                throw ValidationError("--contender names the one contender to run: no other contender flag with it")
            }
            if requests % concurrency != 0 || alone.warmup % concurrency != 0 {
                throw ValidationError("with --contender, --requests and --warmup must be multiples of --concurrency (exact call counts)")
            }
        }
        if (withHeaders || shop) && !rawOnly { throw ValidationError("--with-headers and --shop choose what --raw-only runs") }
        if rawOnly && [withHeaders, shop, transportOnly].filter({ $0 }).count > 1 {
            throw ValidationError("--raw-only runs one of raw-ahc, --transport-only, --with-headers or --shop")
        }
        if [fullOnly, headersOnly, handWrittenOnly, rawOnly].filter({ $0 }).count > 1 {
            throw ValidationError("--full-only, --headers-only, --hand-written-only and --raw-only each run one contender alone")
        }
    }

    func run() async throws {
        let backend = try await SampleBackend.start()
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = concurrency
        let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        // Switchyard's transports run over a client configured as its documentation asks (as its
        // shared client is); the raw contenders over AsyncHTTPClient's defaults. Same pool limits.
        let switchyardClient = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: AsyncHTTPClientTransport.switchyardConfiguration(configuration)
        )
        // Shuts all three down, even when one fails; throws the first failure.
        func shutDown() async throws {
            var failure: (any Error)?
            do { try await httpClient.shutdown() } catch { failure = error }
            do { try await switchyardClient.shutdown() } catch { failure = failure ?? error }
            do { try await backend.shutdown() } catch { failure = failure ?? error }
            if let failure { throw failure }
        }
        do {
            let url = backend.baseURL + "/bench"
            let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
            try registry.register(
                Service(
                    ServiceID("bench"),
                    baseURL: backend.baseURL,
                    stages: (0..<stages).map { HeaderStage(index: $0).stage },
                    transport: AsyncHTTPClientTransport(client: switchyardClient)
                )
            )
            try FullPipelineContender.register(
                in: registry,
                baseURL: backend.baseURL,
                transport: AsyncHTTPClientTransport(client: switchyardClient),
                dropping: Set(dropStages.split(separator: ",").map(String.init))
            )
            let client = APIClient(registry: registry)
            let full = FullPipelineContender(client: client)
            let handWritten = HandWrittenShopClient(transport: AsyncHTTPClientTransport(client: switchyardClient), baseURL: backend.baseURL)
            let rawShop = try RawShopContender(client: httpClient, baseURL: backend.baseURL)
            let raw = RawContender(client: httpClient, url: url)
            let rawWithHeaders = RawContender(client: httpClient, url: url, headerCount: stages)
            // Every field the `switchyard` contender sends — the stages' fields, the client's
            // User-Agent, the transport's Accept-Encoding — over the client Switchyard's transport
            // uses (which decodes gzip and deflate): the same request bytes without the pipeline.
            let rawWithFields = RawContender(
                client: switchyardClient,
                url: url,
                headerCount: stages,
                extraFields: [("User-Agent", UserAgent.default.value), ("Accept-Encoding", "gzip, deflate")]
            )
            let rawDelegate = RawDelegateContender(client: httpClient, url: url)
            let ours = SwitchyardContender(client: client)
            let transport = AsyncHTTPClientTransport(client: switchyardClient)
            let prebuilt = Switchyard.Request(method: .get, url: URL(string: url)!)!
            let transportCall: @Sendable () async throws -> Int = {
                let context = CallContext(serviceID: "bench", timeout: .seconds(30))
                return try await transport.send(prebuilt, context: context).body.count
            }
            // What runs against raw in each round, and its name when it runs alone.
            let (second, secondName): (@Sendable () async throws -> Int, String) =
                selfCheck
                ? (raw.call, "raw-ahc (self-check)")
                : transportOnly ? (transportCall, "transport") : (ours.call, "switchyard pipeline=headers")

            // `--contender`: one contender alone, after a warm-up, for exactly `--requests` calls.
            if let contender = alone.contender {
                let calls: [String: @Sendable () async throws -> Int] = [
                    "raw-ahc": raw.call, "switchyard": ours.call, "raw-ahc+headers": rawWithHeaders.call,
                    "raw-ahc+fields": rawWithFields.call,
                    "switchyard-full": full.call,
                    "raw-ahc-shop": rawShop.call, "raw-ahc-delegate": rawDelegate.call, "hand-written-shop": handWritten.call,
                    "transport": transportCall,
                ]
                let call = calls[contender]!
                try await ContenderOptions.run(contender, warmup: alone.warmup, calls: requests) { [concurrency] count in
                    1e9 / (try await Self.drive(concurrency: concurrency, requests: count, call))
                }
                try await shutDown()
                return
            }
            // One contender alone, for profiling and CPU per request.
            let lone: (call: @Sendable () async throws -> Int, name: String)? =
                if rawOnly {
                    shop
                        ? (rawShop.call, "raw-ahc-shop")
                        : withHeaders
                            ? (rawWithHeaders.call, "raw-ahc+headers")
                            : transportOnly ? (rawDelegate.call, "raw-ahc-delegate") : (raw.call, "raw-ahc")
                } else if fullOnly {
                    (full.call, "switchyard pipeline=full")
                } else if handWrittenOnly {
                    (handWritten.call, "hand-written-shop")
                } else if headersOnly {
                    (second, secondName)
                } else {
                    nil
                }
            if let lone {
                var onlyRates: [Double] = []
                for _ in 0..<rounds { onlyRates.append(try await Self.drive(concurrency: concurrency, requests: requests, lone.call)) }
                print("\(lone.name) concurrency=\(concurrency) \(Statistics.format(Statistics.median(onlyRates), decimals: 0)) requests/s")
                try await shutDown()
                return
            }
            _ = try await Self.drive(concurrency: concurrency, requests: requests / 4, raw.call)
            _ = try await Self.drive(concurrency: concurrency, requests: requests / 4, second)
            _ = try await Self.drive(concurrency: concurrency, requests: requests / 4, full.call)
            _ = try await Self.drive(concurrency: concurrency, requests: requests / 4, rawShop.call)
            _ = try await Self.drive(concurrency: concurrency, requests: requests / 4, rawDelegate.call)
            _ = try await Self.drive(concurrency: concurrency, requests: requests / 4, rawWithHeaders.call)
            _ = try await Self.drive(concurrency: concurrency, requests: requests / 4, handWritten.call)
            var handWrittenRates: [Double] = []
            var rawRates: [Double] = []
            var ourRates: [Double] = []
            var headerRates: [Double] = []
            var fullRates: [Double] = []
            var rawShopRates: [Double] = []
            var delegateRates: [Double] = []
            let contenders: [@Sendable () async throws -> Int] = [
                raw.call, second, rawWithHeaders.call, full.call, rawShop.call, rawDelegate.call, handWritten.call,
            ]
            for round in 0..<rounds {
                // Each round starts with the next contender, so that none always runs first or last.
                var rates = Array(repeating: 0.0, count: contenders.count)
                for offset in contenders.indices {
                    let index = (round + offset) % contenders.count
                    rates[index] = try await Self.drive(concurrency: concurrency, requests: requests, contenders[index])
                }
                rawRates.append(rates[0])
                ourRates.append(rates[1])
                headerRates.append(rates[2])
                fullRates.append(rates[3])
                rawShopRates.append(rates[4])
                delegateRates.append(rates[5])
                handWrittenRates.append(rates[6])
            }
            let rawRate = Statistics.median(rawRates)
            let ourRate = Statistics.median(ourRates)
            print("raw-ahc concurrency=\(concurrency) \(Statistics.format(rawRate, decimals: 0)) requests/s")
            print("switchyard pipeline=headers concurrency=\(concurrency) \(Statistics.format(ourRate, decimals: 0)) requests/s")
            let headerRate = Statistics.median(headerRates)
            print("raw-ahc+headers headers=\(stages) concurrency=\(concurrency) \(Statistics.format(headerRate, decimals: 0)) requests/s")
            let fullRate = Statistics.median(fullRates)
            print("switchyard pipeline=full concurrency=\(concurrency) \(Statistics.format(fullRate, decimals: 0)) requests/s")
            print("ratio switchyard/raw-ahc \(Statistics.format(ourRate / rawRate, decimals: 3))")
            let rawShopRate = Statistics.median(rawShopRates)
            print(
                "raw-ahc-shop concurrency=\(concurrency) \(Statistics.format(rawShopRate, decimals: 0)) requests/s (pre-sealed, pre-signed order; same server work)"
            )
            print("ratio switchyard-full/raw-ahc \(Statistics.format(fullRate / rawRate, decimals: 3))")
            print("ratio switchyard-full/raw-ahc-shop \(Statistics.format(fullRate / rawShopRate, decimals: 3))")
            let handWrittenRate = Statistics.median(handWrittenRates)
            print(
                "hand-written-shop concurrency=\(concurrency) \(Statistics.format(handWrittenRate, decimals: 0)) requests/s (the same exchange, no pipeline)"
            )
            print("ratio hand-written-shop/raw-ahc-shop \(Statistics.format(handWrittenRate / rawShopRate, decimals: 3))")
            print("ratio switchyard-full/hand-written-shop \(Statistics.format(fullRate / handWrittenRate, decimals: 3))")
            print("ratio switchyard/raw-ahc+headers \(Statistics.format(ourRate / headerRate, decimals: 3))")
            print("ratio raw-ahc+headers/raw-ahc \(Statistics.format(headerRate / rawRate, decimals: 3))")
            let delegateRate = Statistics.median(delegateRates)
            print("raw-ahc-delegate concurrency=\(concurrency) \(Statistics.format(delegateRate, decimals: 0)) requests/s")
            print("ratio raw-ahc-delegate/raw-ahc \(Statistics.format(delegateRate / rawRate, decimals: 3))")
            print("rounds raw-ahc \(rawRates.map { Statistics.format($0, decimals: 0) }.joined(separator: " "))")
            print("rounds switchyard \(ourRates.map { Statistics.format($0, decimals: 0) }.joined(separator: " "))")
            print("rounds switchyard-full \(fullRates.map { Statistics.format($0, decimals: 0) }.joined(separator: " "))")
            print("rounds hand-written-shop \(handWrittenRates.map { Statistics.format($0, decimals: 0) }.joined(separator: " "))")
        } catch {
            try? await shutDown()
            throw error
        }
        try await shutDown()
    }

    /// Runs `requests` calls with `concurrency` workers and returns requests per second.
    static func drive(concurrency: Int, requests: Int, _ call: @escaping @Sendable () async throws -> Int) async throws -> Double {
        let perWorker = requests / concurrency
        let start = ContinuousClock.now
        let bytes = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var total = 0
                    for _ in 0..<perWorker { total += try await call() }
                    return total
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = Statistics.seconds(ContinuousClock.now - start)
        precondition(bytes > 0)
        return Double(perWorker * concurrency) / elapsed
    }
}

/// AsyncHTTPClient alone: execute, collect the body; optionally sending the same header fields the
/// Switchyard pipeline's stages set, to separate the cost of those bytes from the pipeline's own.
struct RawContender: Sendable {
    let client: HTTPClient
    let url: String
    /// The header fields sent, made once (as the stages make theirs once).
    let headers: [(name: String, value: String)]

    init(client: HTTPClient, url: String, headerCount: Int = 0, extraFields: [(name: String, value: String)] = []) {
        self.client = client
        self.url = url
        self.headers = (0..<headerCount).map { ("x-stage-\($0)", "value-\($0)") } + extraFields
    }

    func call() async throws -> Int {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else { throw ValidationError("unexpected status \(response.status)") }
        return body.readableBytes
    }
}

/// Switchyard: the intensive call through 8 header stages and the AsyncHTTPClient transport.
struct SwitchyardContender: Sendable {
    let client: APIClient
    let endpoint = DynamicEndpoint<Switchyard.Response>(service: "bench", method: .get, path: "/bench")

    func call() async throws -> Int {
        let result = try await client.send(endpoint, options: CallOptions(timeout: .seconds(30)))
        return result.value.body.count
    }
}

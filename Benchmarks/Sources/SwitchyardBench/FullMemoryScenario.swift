import ArgumentParser
import Foundation
import MallocInterposerSwift
import Switchyard

/// `fullmem`: the shop's whole pipeline — common parameters, headers, authorization, logging at info
/// to a discarding handler, null stripping, envelope, encryption, signing with response verification,
/// decoding into a model — over an in-process server whose work is subtracted: the client's CPU and
/// allocations per call, and where they go stage by stage.
struct FullMemoryScenario: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fullmem",
        abstract: "The full shop pipeline in memory: client time and allocations per call, per stage."
    )

    @Option(help: "Calls per round.") var requests = 20_000
    @Option(help: "Rounds (the median is reported).") var rounds = 5
    @Option(help: "Comma-separated stage names to leave out (the server then refuses what it needs: for profiling).")
    var dropStages = ""
    @Option(
        help: """
            With --contender switchyard: a target that changes on every call, `query` (POST /orders?seq=N) or \
            `id` (GET /orders/N, named GET /orders/{id}); the logging stage then redacts a new target each call.
            """
    )
    var changingTarget: FullMemoryRun.ChangingTarget?
    @OptionGroup var alone: ContenderOptions

    /// The contenders `--contender` can run alone: the full pipeline and the hand-written client.
    static let contenders = ["switchyard", "hand-written"]

    func validate() throws {
        try alone.validate(among: Self.contenders)
        if changingTarget != nil, alone.contender != "switchyard" {
            throw ValidationError("--changing-target needs --contender switchyard")
        }
    }

    func run() async throws {
        let requestCount = requests
        if let contender = alone.contender {
            // The client's time per call, the server's share subtracted (instructions.sh leaves the
            // server's instructions out the same way: callgrind stops collecting inside its `respond`).
            let (dropping, warmup, changing) = (Set(dropStages.split(separator: ",").map(String.init)), alone.warmup, changingTarget)
            try await Task.detached {
                let run = try FullMemoryRun(dropping: dropping, changingTarget: changing)
                try await ContenderOptions.run(contender, warmup: warmup, calls: requestCount) {
                    try await run.clientNanoseconds(requests: $0, byHand: contender == "hand-written")
                }
            }.value
            return
        }
        let roundCount = rounds
        let dropping = Set(dropStages.split(separator: ",").map(String.init))
        MallocInterposerSwift.initialize()
        let report = try await Task.detached {
            try await FullMemoryRun(dropping: dropping).measure(requests: requestCount, rounds: roundCount)
        }
        .value
        print("switchyard fullmem \(Statistics.format(report.clientNanoseconds)) ns/request")
        print("fullmem server (subtracted) \(Statistics.format(report.serverNanoseconds)) ns/request")
        print(
            "fullmem hand-written \(Statistics.format(report.handWrittenNanoseconds)) ns/request (the same exchange with no pipeline; "
                + "its server share \(Statistics.format(report.handWrittenServerNanoseconds)) ns/request subtracted)"
        )
        print("ratio fullmem/hand-written \(Statistics.format(report.clientNanoseconds / report.handWrittenNanoseconds, decimals: 2))")
        if let mallocs = report.clientMallocs, let handWritten = report.handWrittenMallocs {
            print(
                "fullmem allocations \(Statistics.format(mallocs)) mallocs/request (server's \(Statistics.format(report.serverMallocs)) subtracted)"
            )
            print("fullmem hand-written allocations \(Statistics.format(handWritten)) mallocs/request")
        } else {
            print("fullmem allocations not counted: run with LD_PRELOAD=<Benchmarks/.build/release>/libMallocInterposerSwift.so")
        }
        print("fullmem with stage timings on \(Statistics.format(report.timedClientNanoseconds)) ns/request")
        for (stage, nanoseconds) in report.stages {
            print("stage \(stage) \(Statistics.format(nanoseconds)) ns/request")
        }
        let attributed = report.stages.filter { $0.0 != "transport" }.reduce(0) { $0 + $1.1 }
        print("stages total \(Statistics.format(attributed)) ns/request; the rest is the client's own (building, checking, decoding)")
    }
}

/// One measurement of the full pipeline in memory.
struct FullMemoryRun: Sendable {
    struct Report {
        var clientNanoseconds: Double
        var serverNanoseconds: Double
        var handWrittenNanoseconds: Double
        var handWrittenServerNanoseconds: Double
        var clientMallocs: Double?
        var handWrittenMallocs: Double?
        var serverMallocs: Double
        var timedClientNanoseconds: Double
        var stages: [(String, Double)]
    }

    /// A target that changes on every call (`--changing-target`).
    enum ChangingTarget: String, ExpressibleByArgument, Sendable {
        case query, id
    }

    let transport = InProcessShopTransport()
    let changingTarget: ChangingTarget?
    let contender: FullPipelineContender
    let handWritten: HandWrittenShopClient

    init(dropping: Set<String>, changingTarget: ChangingTarget? = nil) throws {
        self.changingTarget = changingTarget
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try FullPipelineContender.register(in: registry, baseURL: "https://shop.example.com", transport: transport, dropping: dropping)
        contender = FullPipelineContender(client: APIClient(registry: registry))
        handWritten = HandWrittenShopClient(transport: transport, baseURL: "https://shop.example.com")
    }

    func measure(requests: Int, rounds: Int) async throws -> Report {
        _ = try await round(requests: requests / 10, contender.call)
        _ = try await round(requests: requests / 10, handWritten.call)
        var client: [Double] = []
        var server: [Double] = []
        var floor: [Double] = []
        var handServerShares: [Double] = []
        for index in 0..<rounds {
            // Each round starts with the other contender than the last one did.
            for byHand in index.isMultiple(of: 2) ? [false, true] : [true, false] {
                let (total, serverShare) = try await round(requests: requests, byHand ? handWritten.call : contender.call)
                if byHand {
                    floor.append(total - serverShare)
                    handServerShares.append(serverShare)
                } else {
                    client.append(total - serverShare)
                    server.append(serverShare)
                }
            }
        }
        // Allocations: one more round with counting on (the counter costs time, so it is not timed).
        let (total, serverMallocs) = try await countedRound(requests: requests, contender.call)
        let (handTotal, handServerMallocs) = try await countedRound(requests: requests, handWritten.call)
        let (timedTotal, timedServer, stages) = try await timedRound(requests: requests)
        return Report(
            clientNanoseconds: Statistics.median(client),
            serverNanoseconds: Statistics.median(server),
            handWrittenNanoseconds: Statistics.median(floor),
            handWrittenServerNanoseconds: Statistics.median(handServerShares),
            clientMallocs: total > 0 ? (total - serverMallocs) / Double(requests) : nil,
            handWrittenMallocs: handTotal > 0 ? (handTotal - handServerMallocs) / Double(requests) : nil,
            serverMallocs: serverMallocs / Double(requests),
            timedClientNanoseconds: timedTotal - timedServer,
            stages: stages
        )
    }

    /// The client's nanoseconds per call over `requests` calls of one contender, the server's share
    /// subtracted.
    func clientNanoseconds(requests: Int, byHand: Bool) async throws -> Double {
        let call: () async throws -> Int
        switch (byHand, changingTarget) {
        case (true, _): call = handWritten.call
        case (false, nil): call = contender.call
        case (false, .query): call = contender.callAtChangingQuery
        case (false, .id): call = contender.callAtChangingID
        }
        let (total, serverShare) = try await round(requests: requests, call)
        return total - serverShare
    }

    /// Mallocs in a round of `call`, in all and the server's share (counting costs time, so the round
    /// is not timed).
    private func countedRound(requests: Int, _ call: () async throws -> Int) async throws -> (Double, Double) {
        let serverBefore = transport.serverMallocs.load(ordering: .relaxed)
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        for _ in 0..<requests { _ = try await call() }
        MallocInterposerSwift.unhook()
        let total = Double(MallocInterposerSwift.getStatistics().mallocCount)
        return (total, Double(transport.serverMallocs.load(ordering: .relaxed) - serverBefore))
    }

    /// Nanoseconds per call of `call`, in all and the server's share.
    private func round(requests: Int, _ call: () async throws -> Int) async throws -> (Double, Double) {
        let serverBefore = transport.serverNanoseconds.load(ordering: .relaxed)
        var done = 0
        let start = ContinuousClock.now
        for _ in 0..<requests { done += try await call() }
        let elapsed = Statistics.seconds(ContinuousClock.now - start) * 1e9
        precondition(done == requests)
        let server = Double(transport.serverNanoseconds.load(ordering: .relaxed) - serverBefore)
        return (elapsed / Double(requests), server / Double(requests))
    }

    /// A round with stage timings on: the per-call figures and each stage's mean own time, the
    /// transport's with the server's share taken out.
    private func timedRound(requests: Int) async throws -> (Double, Double, [(String, Double)]) {
        var options = CallOptions()
        options.recordsStageTimings = true
        var sums: [(String, Double)] = []
        let serverBefore = transport.serverNanoseconds.load(ordering: .relaxed)
        let start = ContinuousClock.now
        for _ in 0..<requests {
            let result = try await contender.client.send(contender.endpoint, options: options)
            guard let timings = result.stageTimings else { throw CancellationError() }
            if sums.isEmpty { sums = timings.entries.map { ($0.stage.rawValue, 0) } }
            for (index, entry) in timings.entries.enumerated() where index < sums.count {
                sums[index].1 += Statistics.seconds(entry.total) * 1e9
            }
        }
        let elapsed = Statistics.seconds(ContinuousClock.now - start) * 1e9 / Double(requests)
        let server = Double(transport.serverNanoseconds.load(ordering: .relaxed) - serverBefore)
        let perCall = sums.map { ($0.0, ($0.0 == "transport" ? $0.1 - server : $0.1) / Double(requests)) }
        return (elapsed, server / Double(requests), perCall)
    }
}

import ArgumentParser

/// `switchyard-bench`: the benchmark harness. Every scenario measures Switchyard and its baseline in
/// the same run, interleaved, and prints machine-readable lines.
@main
struct SwitchyardBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchyard-bench",
        abstract: "Measures Switchyard against its baselines in the same run.",
        subcommands: [
            ChainScenario.self, LoopbackScenario.self, CryptoScenario.self, SanitizeScenario.self, CacheScenario.self,
            TransferScenario.self, FullMemoryScenario.self, EventStreamScenario.self, ScaleScenario.self,
            OutboxScenario.self,
        ]
    )
}

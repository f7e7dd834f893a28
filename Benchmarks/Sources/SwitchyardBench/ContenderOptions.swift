import ArgumentParser

/// `--contender NAME --warmup W`, shared by `chain`, `fullmem`, `cache` and `loopback`: run one of the
/// scenario's contenders alone — no interleaved peers, no rounds, no allocation or timing passes — for
/// W warm-up calls and then exactly the scenario's call count (`--requests`, or `--calls` for `cache`),
/// and print one line, `contender NAME calls=N <ns> ns/call`. The warm-up does not depend on N, so two
/// runs at N and 2N differ only in N measured calls: `Scripts/instructions.sh` counts instructions
/// that way under callgrind.
struct ContenderOptions: ParsableArguments {
    @Option(help: "Run this contender alone for exactly the call count after --warmup calls (for instruction counts).")
    var contender: String?

    @Option(help: "With --contender: calls made before the measured ones, the same whatever the call count.")
    var warmup = 1_024

    /// Refuses a contender the scenario does not have, naming the ones it has.
    func validate(among names: [String]) throws {
        guard let contender else { return }
        guard names.contains(contender) else {
            throw ValidationError("unknown contender \(contender); this scenario has \(names.joined(separator: ", "))")
        }
        guard warmup >= 0 else { throw ValidationError("--warmup must not be negative") }
    }

    /// Runs `measure` for the warm-up and then for `calls` calls (`measure(n)` makes n calls and
    /// returns nanoseconds per call), and prints the measured calls' time per call.
    static func run(_ name: String, warmup: Int, calls: Int, _ measure: (Int) async throws -> Double) async throws {
        if warmup > 0 { _ = try await measure(warmup) }
        let nanoseconds = try await measure(calls)
        print("contender \(name) calls=\(calls) \(Statistics.format(nanoseconds)) ns/call")
    }
}

import Foundation
import Subprocess

/// One run of a command-line tool the tests check against (openssl, python3): what it printed and
/// whether it succeeded.
///
/// Runs through swift-subprocess, which waits for the child with a pidfd and never blocks a thread:
/// Foundation's `Process.waitUntilExit()` polls a run loop for an exit it can miss, and a test
/// parked there holds up the whole run.
package struct ToolRun: Sendable {
    /// The status the tool exited with; `nil` when a signal ended it.
    package let exitStatus: Int32?
    /// Its standard output.
    package let output: String
    /// Its standard error.
    package let errors: String

    /// Runs `executable` (a path, or a name looked up in `PATH`) with `arguments` and collects its
    /// output; a stream past 16 MiB fails the run (swift-subprocess's `outputLimitExceeded`).
    package static func run(_ executable: String, _ arguments: [String]) async throws -> ToolRun {
        let result = try await Subprocess.run(
            executable.hasPrefix("/") ? .path(.init(executable)) : .name(executable),
            arguments: Arguments(arguments),
            output: .string(limit: 16 << 20),
            error: .string(limit: 16 << 20)
        )
        let exitStatus: Int32? =
            switch result.terminationStatus {
            case .exited(let code): Int32(code)
            case .signaled: nil
            }
        return ToolRun(
            exitStatus: exitStatus,
            output: result.standardOutput,
            errors: result.standardError
        )
    }

    /// Whether the tool exited with status 0.
    package var succeeded: Bool { exitStatus == 0 }
}

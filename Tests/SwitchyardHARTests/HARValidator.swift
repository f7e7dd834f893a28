import Foundation
import SwitchyardTestSupport

/// `Tests/HAR/validate_har.py`: checks HAR files against the HAR 1.2 JSON Schema beside it with the
/// independent `jsonschema` package, plus the rules a schema cannot state. Without `jsonschema` the
/// tests that use it are skipped with a message, unless `SWITCHYARD_REQUIRE_REAL_SERVERS=1` (CI) makes
/// that a failure.
enum HARValidator {
    /// What the validator said about a file.
    struct Verdict: Sendable {
        let exitStatus: Int32
        let output: String
    }

    /// Whether the tests run: CI requires them, or python3 has `jsonschema` (checked once).
    static let enabled = Task {
        await PythonSupervisor.runsSuite(importing: "jsonschema", skipped: "HAR SCHEMA TESTS SKIPPED: pip install jsonschema")
    }

    /// Runs the validator on `file`.
    static func validate(_ file: URL) async throws -> Verdict {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("HAR/validate_har.py")
        let run = try await ToolRun.run("python3", [script.path, file.path])
        return Verdict(exitStatus: run.exitStatus ?? -1, output: run.output + run.errors)
    }
}

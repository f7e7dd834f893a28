import Foundation
import SwitchyardTestSupport

/// `Tests/Interop/reference_backend.py`, an encryption backend written in Python from
/// `Docs/WireFormat.md`, started once for the test process on a free loopback port and stopped when
/// the process ends (its standard input closes). Needs PyCA `cryptography`; without it the suite is
/// skipped with a message, unless `SWITCHYARD_REQUIRE_REAL_SERVERS=1` (CI) makes that a failure.
enum ReferenceBackend {
    /// The base URL, or why there is none.
    static let shared: Result<String, PythonSupervisor.Unavailable> = start()

    /// Whether the suite runs: CI requires it, or python3 has PyCA `cryptography` (checked once,
    /// before any test runs).
    static let enabled = Task {
        await PythonSupervisor.runsSuite(importing: "cryptography", skipped: "REFERENCE-BACKEND SUITE SKIPPED: pip install cryptography")
    }

    /// The base URL, the backend started on first use on a thread of its own (not on the threads the
    /// tests' tasks run on).
    static func require() async throws -> String {
        try await offThePool { try shared.get() }
    }

    private static func start() -> Result<String, PythonSupervisor.Unavailable> {
        struct Info: Decodable { let port: Int }
        let info: Info
        switch PythonSupervisor.launch("Interop/reference_backend.py") {
        case .failure(let reason):
            return .failure(PythonSupervisor.Unavailable(description: "\(reason) (pip install cryptography?)"))
        case .success(let line):
            guard let decoded = try? JSONDecoder().decode(Info.self, from: line) else {
                return .failure(PythonSupervisor.Unavailable(description: "the reference backend's answer is not its port"))
            }
            info = decoded
        }
        return .success("http://127.0.0.1:\(info.port)")
    }
}

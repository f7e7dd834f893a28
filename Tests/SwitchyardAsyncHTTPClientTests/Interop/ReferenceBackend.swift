import Foundation

/// `Tests/Interop/reference_backend.py`, an encryption backend written in Python from
/// `Docs/WireFormat.md`, started once for the test process on a free loopback port and stopped when
/// the process ends (its standard input closes). Needs PyCA `cryptography`; without it the suite is
/// skipped with a message, unless `SWITCHYARD_REQUIRE_REAL_SERVERS=1` (CI) makes that a failure.
enum ReferenceBackend {
    /// The base URL, or why there is none.
    static let shared: Result<String, RealServers.Unavailable> = start()

    /// Whether the suite runs: CI requires it, or python3 has PyCA `cryptography` (checked once,
    /// before any test runs).
    static let enabled: Bool = {
        if ProcessInfo.processInfo.environment["SWITCHYARD_REQUIRE_REAL_SERVERS"] == "1" { return true }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", "-c", "import cryptography"]
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        if check.terminationStatus != 0 {
            FileHandle.standardError.write(Data("\n*** REFERENCE-BACKEND SUITE SKIPPED: pip install cryptography ***\n\n".utf8))
        }
        return check.terminationStatus == 0
    }()

    /// The base URL, the backend started on first use on a thread of its own (not on the threads the
    /// tests' tasks run on).
    static func require() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: shared.mapError { $0 as any Error }) }.start()
        }
    }

    nonisolated(unsafe) private static var keepAlive: [Any] = []

    private static func start() -> Result<String, RealServers.Unavailable> {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Interop/reference_backend.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return .failure(RealServers.Unavailable(description: "python3 could not start \(script.path): \(error)"))
        }
        keepAlive = [process, input]
        var line = Data()
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
            if chunk.contains(UInt8(ascii: "\n")) { break }
        }
        struct Info: Decodable { let port: Int }
        guard let info = try? JSONDecoder().decode(Info.self, from: line) else {
            let reason = String(decoding: errors.fileHandleForReading.readDataToEndOfFile().suffix(300), as: UTF8.self)
            return .failure(
                RealServers.Unavailable(description: "the reference backend did not start (pip install cryptography?): \(reason)")
            )
        }
        return .success("http://127.0.0.1:\(info.port)")
    }
}

package import Foundation

/// Starts a Python server script of the tests (`Tests/<path>`) that prints one JSON line when it is
/// ready and serves until its standard input closes: the pipe is held for the life of the test
/// process, so the servers stop — by pid, in the script — when the process ends.
package enum PythonSupervisor {
    /// Why a server is not there.
    package struct Unavailable: Error, CustomStringConvertible {
        package let description: String

        /// Says why.
        package init(description: String) { self.description = description }
    }

    private static let lock = NSLock()
    /// The processes and their standard inputs, kept open; guarded by `lock`.
    nonisolated(unsafe) private static var keepAlive: [Any] = []

    /// Whether a suite that needs python3 with `module` runs: always under CI
    /// (`SWITCHYARD_REQUIRE_REAL_SERVERS=1`, where a missing module is a failure), otherwise when
    /// python3 imports it; a skip is announced on standard error as `skipped` says.
    package static func runsSuite(importing module: String, skipped: String) async -> Bool {
        if ProcessInfo.processInfo.environment["SWITCHYARD_REQUIRE_REAL_SERVERS"] == "1" { return true }
        let imports = (try? await ToolRun.run("python3", ["-c", "import \(module)"]))?.succeeded ?? false
        if !imports {
            FileHandle.standardError.write(Data("\n*** \(skipped) ***\n\n".utf8))
        }
        return imports
    }

    /// Starts `python3 Tests/<path> arguments…` and returns the JSON line it prints when ready (blocks until then).
    package static func launch(_ path: String, arguments: [String] = []) -> Result<Data, Unavailable> {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(path)
        let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-python-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorLog) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try? FileHandle(forWritingTo: errorLog)
        do {
            try process.run()
        } catch {
            return .failure(Unavailable(description: "python3 could not start \(script.path): \(error)"))
        }
        lock.withLock { keepAlive += [process, input] }
        var line = Data()
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
            if chunk.contains(UInt8(ascii: "\n")) { break }
        }
        guard !line.isEmpty else {
            let reason = String(decoding: ((try? Data(contentsOf: errorLog)) ?? Data()).suffix(300), as: UTF8.self)
            return .failure(Unavailable(description: "\(path) did not start: \(reason)"))
        }
        return .success(line)
    }
}

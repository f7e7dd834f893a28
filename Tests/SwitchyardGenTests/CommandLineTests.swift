import Foundation
import Subprocess
import Testing

/// The `switchyard-gen` executable, as the build plugin and people run it.
@Suite("switchyard-gen")
struct CommandLineTests {
    /// The executable built beside the tests (`switchyard-gen`, or the plugin's `switchyard-gen-tool`).
    static func executable() throws -> URL {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for name in ["switchyard-gen", "switchyard-gen-tool"] {
            let url = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: directory.appendingPathComponent("switchyard-gen").path])
    }

    /// Runs the executable through swift-subprocess, which waits for it without blocking a thread
    /// (Foundation's `Process.waitUntilExit()` polls a run loop for an exit it can miss).
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        let result = try await Subprocess.run(
            .path(.init(try executable().path)),
            arguments: Arguments(arguments),
            output: .string(limit: 16 << 20),
            error: .string(limit: 16 << 20)
        )
        let status: Int32 =
            switch result.terminationStatus {
            case .exited(let code): Int32(code)
            case .signaled(let signal): -Int32(signal)
            }
        return (status, result.standardOutput, result.standardError)
    }

    @Test("generate writes Swift and Markdown; validate reports errors as file:line:column and exits 1")
    func generateAndValidate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-gen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Petstore.switchyard.yaml").path
        let swift = directory.appendingPathComponent("out/PetstoreAPI.swift")
        let markdown = directory.appendingPathComponent("out/PetstoreAPI.md")
        let generated = try await Self.run(["generate", fixture, "--swift", swift.path, "--markdown", markdown.path])
        #expect(generated.status == 0, "\(generated.errors)")
        #expect(try String(contentsOf: swift, encoding: .utf8).contains("public struct ListPets: Endpoint"))
        #expect(try String(contentsOf: markdown, encoding: .utf8).hasPrefix("# Petstore API"))

        let broken = directory.appendingPathComponent("Broken.switchyard.yaml")
        try
            "services:\n  shop:\n    environments: { develop: \"http://127.0.0.1\" }\n    endpoints:\n      GetItem:\n        path: /items/{id}\n"
            .write(to: broken, atomically: true, encoding: .utf8)
        let validated = try await Self.run(["validate", fixture, broken.path])
        #expect(validated.status == 1)
        #expect(validated.output.contains("Petstore.switchyard.yaml: 2 services, 6 endpoints, 4 models"))
        #expect(
            validated.errors.contains("\(broken.path):5:7: error: path parameter '{id}' of 'GetItem' has no declaration under 'parameters'")
        )
    }

    @Test(
        "OpenAPI documents, recognised by content (odd.yaml): warnings on stderr with line and column; --strict fails; validate counts them"
    )
    func openAPI() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-gen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = directory.appendingPathComponent("odd.yaml")
        try OpenAPIDiagnosticsTests.odd.write(to: document, atomically: true, encoding: .utf8)
        let swift = directory.appendingPathComponent("OddAPI.swift")
        let generated = try await Self.run(["generate", document.path, "--swift", swift.path])
        #expect(generated.status == 0, "\(generated.errors)")
        #expect(generated.errors.contains("\(document.path):13:11: warning: unsupported parameter location 'cookie'"))
        #expect(
            try String(contentsOf: swift, encoding: .utf8).contains(
                "extension OddAPI {\n    /// `GET /things` on `odd`.\n    internal struct ListThings: Endpoint"
            )
        )
        let strict = try await Self.run(["generate", document.path, "--swift", swift.path, "--strict"])
        #expect(strict.status == 1 && strict.errors.contains("\(document.path):13:11: error: unsupported parameter location 'cookie'"))
        let shelter = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("OpenAPI/Shelter.openapi.yaml")
            .path
        let validated = try await Self.run(["validate", shelter])
        #expect(validated.status == 0 && validated.output.contains("Shelter.openapi.yaml: 1 services, 5 endpoints, 5 models"))
    }
}

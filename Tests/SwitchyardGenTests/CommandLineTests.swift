import Foundation
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

    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        let executable = try executable()
        return try await offThePool { try runBlocking(executable, arguments) }
    }

    private static func runBlocking(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
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

    @Test("OpenAPI documents: warnings on stderr with line and column; --strict fails; validate counts them")
    func openAPI() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-gen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = directory.appendingPathComponent("Odd.openapi.yaml")
        try OpenAPIDiagnosticsTests.odd.write(to: document, atomically: true, encoding: .utf8)
        let swift = directory.appendingPathComponent("OddAPI.swift")
        let generated = try await Self.run(["generate", document.path, "--swift", swift.path])
        #expect(generated.status == 0, "\(generated.errors)")
        #expect(generated.errors.contains("\(document.path):31:9: warning: unsupported schema: 'not'"))
        #expect(try String(contentsOf: swift, encoding: .utf8).contains("struct ListThings: Endpoint"))
        let strict = try await Self.run(["generate", document.path, "--swift", swift.path, "--strict"])
        #expect(strict.status == 1 && strict.errors.contains("\(document.path):31:9: error: unsupported schema: 'not'"))
        let shelter = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("OpenAPI/Shelter.openapi.yaml")
            .path
        let validated = try await Self.run(["validate", shelter])
        #expect(validated.status == 0 && validated.output.contains("Shelter.openapi.yaml: 1 services, 5 endpoints, 5 models"))
    }
}

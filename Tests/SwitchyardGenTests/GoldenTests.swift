import Foundation
import SwitchyardGenCore
import Testing

/// The generator's output for the fixture, byte for byte against the files in `Golden/`.
/// Run with `SWITCHYARD_UPDATE_GOLDEN=1` to rewrite them after an intended change, and review the diff.
@Suite("Generator golden files")
struct GoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let fixture = directory.appendingPathComponent("Petstore.switchyard.yaml")

    static func output() throws -> SwitchyardGenerator.Output {
        try SwitchyardGenerator.generate(yaml: String(contentsOf: fixture, encoding: .utf8), file: "Petstore.switchyard.yaml")
    }

    static func compare(_ actual: String, golden name: String) throws {
        let url = directory.appendingPathComponent("Golden").appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["SWITCHYARD_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        if let index = zip(actualLines, expectedLines).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            Issue.record("\(name) differs at line \(index + 1):\n  expected: \(expectedLines[index])\n  actual:   \(actualLines[index])")
        } else {
            #expect(actualLines.count == expectedLines.count, "\(name): \(actualLines.count) lines, expected \(expectedLines.count)")
        }
    }

    @Test("the Swift output matches Golden/PetstoreAPI.swift.golden")
    func swift() throws {
        try Self.compare(Self.output().swift, golden: "PetstoreAPI.swift.golden")
    }

    @Test("the Markdown reference matches Golden/PetstoreAPI.md.golden")
    func markdown() throws {
        try Self.compare(Self.output().markdown, golden: "PetstoreAPI.md.golden")
    }

    @Test("the output is the same every time (no dictionary order leaks in)")
    func deterministic() throws {
        let first = try Self.output()
        for _ in 0..<5 {
            let again = try Self.output()
            #expect(again.swift == first.swift && again.markdown == first.markdown)
        }
    }
}

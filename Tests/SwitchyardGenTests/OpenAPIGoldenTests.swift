import Foundation
import SwitchyardGenCore
import Testing

/// The generator's output for the OpenAPI fixtures in `OpenAPI/`, byte for byte against `Golden/`.
/// Run with `SWITCHYARD_UPDATE_GOLDEN=1` to rewrite them after an intended change, and review the diff.
@Suite("OpenAPI golden files")
struct OpenAPIGoldenTests {
    static let directory = GoldenTests.directory.appendingPathComponent("OpenAPI")

    static func output(_ document: String) throws -> SwitchyardGenerator.Output {
        let text = try String(contentsOf: directory.appendingPathComponent(document), encoding: .utf8)
        return try SwitchyardGenerator.generate(yaml: text, file: document)
    }

    @Test(
        "each fixture's Swift and Markdown match their golden files, without warnings",
        arguments: [
            ("Shelter.openapi.yaml", "ShelterAPI"), ("Shapes.openapi.json", "ShapesAPI"), ("Uploads.openapi.yaml", "UploadsAPI"),
            ("Ledger.openapi.yaml", "LedgerAPI"),
        ]
    )
    func matchesGolden(document: String, golden: String) throws {
        let output = try Self.output(document)
        #expect(output.warnings.isEmpty, "\(output.warnings)")
        try GoldenTests.compare(output.swift, golden: golden + ".swift.golden")
        try GoldenTests.compare(output.markdown, golden: golden + ".md.golden")
    }

    @Test("the own description format says what the OpenAPI fixtures say about bodies: Studio.switchyard.yaml")
    func ownFormatBodies() throws {
        let url = GoldenTests.directory.appendingPathComponent("Studio.switchyard.yaml")
        let output = try SwitchyardGenerator.generate(yaml: String(contentsOf: url, encoding: .utf8), file: "Studio.switchyard.yaml")
        try GoldenTests.compare(output.swift, golden: "StudioAPI.swift.golden")
    }

    @Test("the OpenAPI output is the same every time (no dictionary order leaks in)")
    func deterministic() throws {
        for document in ["Shelter.openapi.yaml", "Shapes.openapi.json"] {
            let first = try Self.output(document)
            for _ in 0..<3 {
                let again = try Self.output(document)
                #expect(again.swift == first.swift && again.markdown == first.markdown)
            }
        }
    }

    @Test("a 3.0 document and the same document as 3.1 give the same Swift")
    func versionsAgree() throws {
        let text = try String(contentsOf: Self.directory.appendingPathComponent("Shelter.openapi.yaml"), encoding: .utf8)
        let converted = text.replacingOccurrences(of: "openapi: 3.0.3", with: "openapi: 3.1.0")
            .replacingOccurrences(of: "          type: string\n          nullable: true", with: "          type: [string, 'null']")
        #expect(converted != text)
        let old = try SwitchyardGenerator.generate(yaml: text, file: "Shelter.openapi.yaml")
        let new = try SwitchyardGenerator.generate(yaml: converted, file: "Shelter.openapi.yaml")
        #expect(old.swift == new.swift)
    }
}

import Foundation
import SwitchyardGenCore
import Testing

/// Reading an untrusted document is bounded: aliases cannot expand it past a node count, nesting past
/// a depth, mappings past a cost of finding keys, files past a size; bytes that are not UTF-8 are an
/// error at their line and column.
@Suite("Document bounds", .timeLimit(.minutes(1)))
struct DocumentBoundsTests {
    /// An OpenAPI document whose last alias stands for `10^levels` scalars, in a few hundred bytes.
    static func laughs(levels: Int) -> String {
        var lines = ["openapi: 3.1.0", "info: { title: Laughs, version: '1' }", "paths: {}", "x-lol:"]
        lines.append("  l0: &l0 [" + Array(repeating: "lol", count: 10).joined(separator: ", ") + "]")
        for level in 1..<levels {
            lines.append("  l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func timed(_ body: () throws -> SwitchyardGenerator.Output) -> (errors: [String], seconds: Double) {
        let clock = ContinuousClock()
        var errors: [String] = []
        let elapsed = clock.measure { errors = GeneratedCodeInjectionTests.errors(body) }
        return (errors, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    @Test("a billion-laughs document expanding to 10⁶ nodes fails fast at the alias that crosses the limit")
    func laughs() {
        let text = Self.laughs(levels: 6)
        #expect(text.utf8.count < 1300)
        let (errors, seconds) = Self.timed { try SwitchyardGenerator.generate(yaml: text, file: "Laughs.openapi.yaml") }
        #expect(
            errors == [
                "Laughs.openapi.yaml:10:47: error: the document grows past 1000000 nodes here (each alias counted as the nodes it repeats);"
                    + " the generator reads no further"
            ],
            "\(errors)"
        )
        #expect(seconds < 1, "\(seconds) s")
        // A hundredth of that is read: aliases are not forbidden, only their expansion is bounded.
        #expect(throws: Never.self) { try SwitchyardGenerator.generate(yaml: Self.laughs(levels: 4), file: "Laughs.openapi.yaml") }
    }

    @Test("a billion-laughs document of about 1 KB expanding to 10⁵ nodes fails fast: aliases add at most 10 times a document")
    func smallLaughs() {
        // Five levels of ten, the first of long words: 1 KB of text standing for 111,111 nodes, well within the
        // node limit, but a hundred thousand times what it writes.
        var text = Self.laughs(levels: 5)
        let word = "laughing-out-loud-at-a-generator-that-reads-every-alias-it-is-given-\u{2014}-again"
        text = text.replacingOccurrences(of: "lol", with: word)
        #expect((1000...1300).contains(text.utf8.count), "\(text.utf8.count) bytes")
        let (errors, seconds) = Self.timed { try SwitchyardGenerator.generate(yaml: text, file: "Laughs.openapi.yaml") }
        #expect(
            errors == [
                "Laughs.openapi.yaml:9:12: error: the document's aliases repeat more than 10 times its own 73 nodes here"
                    + " (123400 nodes added, at most 20000); the generator reads no further"
            ],
            "\(errors)"
        )
        #expect(seconds < 0.5, "\(seconds) s")
    }

    @Test("what aliases may add grows with the document: a large document repeats more than a small one may")
    func aliasesInProportion() throws {
        // 3,000 nodes of its own, and an anchored list of 100 scalars repeated 250 times: 25,000 nodes added,
        // within ten times the document though past what any document may add.
        var lines = ["openapi: 3.1.0", "info: { title: Shared, version: '1' }", "paths: {}", "x-own:"]
        lines += (0..<1_500).map { "  k\($0): v" }
        lines.append("x-shared: &shared [" + (0..<100).map { "s\($0)" }.joined(separator: ", ") + "]")
        lines.append("x-uses: [" + Array(repeating: "*shared", count: 250).joined(separator: ", ") + "]")
        let text = lines.joined(separator: "\n") + "\n"
        #expect(throws: Never.self) { try SwitchyardGenerator.generate(yaml: text, file: "Shared.openapi.yaml") }
        // The same repetition in a document of its own size alone is refused.
        let small = lines.prefix(4) + lines.suffix(2)
        let errors = GeneratedCodeInjectionTests.errors {
            try SwitchyardGenerator.generate(yaml: small.joined(separator: "\n") + "\n", file: "Shared.openapi.yaml")
        }
        #expect(errors.count == 1 && errors.first?.contains("aliases repeat more than 10 times") == true, "\(errors)")
    }

    @Test("nesting deeper than the limit fails fast, in a description and in a type")
    func depth() {
        let (errors, seconds) = Self.timed {
            try SwitchyardGenerator.generate(yaml: "x: " + String(repeating: "[", count: 500), file: "Deep.openapi.yaml")
        }
        #expect(
            errors == [
                "Deep.openapi.yaml:1:131: error: the document nests deeper than 128 levels here (aliases counted where they are used);"
                    + " the generator reads no further"
            ],
            "\(errors)"
        )
        #expect(seconds < 1, "\(seconds) s")
        // Block nesting, and an alias of deep nesting used deep: counted where it is used.
        let block = (0..<200).map { String(repeating: " ", count: $0) + "k:" }.joined(separator: "\n") + " 1\n"
        let blockErrors = GeneratedCodeInjectionTests.errors { try SwitchyardGenerator.generate(yaml: block, file: "Deep.openapi.yaml") }
        #expect(blockErrors.count == 1 && blockErrors.first?.contains("nests deeper than 128 levels") == true, "\(blockErrors)")
        let nested =
            "a: &a " + String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
            + "\nb: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[*a]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n"
        let nestedErrors = GeneratedCodeInjectionTests.errors { try SwitchyardGenerator.generate(yaml: nested, file: "Deep.openapi.yaml") }
        #expect(
            nestedErrors.first?.hasPrefix("Deep.openapi.yaml:2:34: error: the document nests deeper than 128 levels") == true,
            "\(nestedErrors)"
        )
        // libyaml's own limit (1,000 levels of flow nesting, met while it looks ahead) is an error too.
        let deeper = GeneratedCodeInjectionTests.errors {
            try SwitchyardGenerator.generate(yaml: "x: " + String(repeating: "[", count: 100_000), file: "Deep.openapi.yaml")
        }
        #expect(deeper.count == 1 && deeper.first?.hasPrefix("Deep.openapi.yaml:1:") == true, "\(deeper)")
        let type = String(repeating: "[", count: 50_000) + "int" + String(repeating: "]", count: 50_000)
        let description = """
            services:
              shop:
                environments: { develop: "http://127.0.0.1:8080" }
                endpoints:
                  Get: { path: /x, response: "\(type)" }
            """
        let typeErrors = GeneratedCodeInjectionTests.errors {
            try SwitchyardGenerator.generate(yaml: description, file: "Shop.switchyard.yaml")
        }
        #expect(typeErrors.count == 1 && typeErrors.first?.hasPrefix("Shop.switchyard.yaml:5:34: error: '[[[[") == true)
    }

    @Test("a schema nested just inside the depth limit is generated: every walk of it stays within the stack")
    func deepSchema() throws {
        let levels = 120
        var lines = ["openapi: 3.1.0", "info: { title: Deep, version: '1' }", "servers: [{ url: 'https://deep.example' }]", "paths: {}"]
        lines += ["components:", "  schemas:", "    Deep:"]
        for level in 0..<levels {
            let indentation = String(repeating: "  ", count: level + 3)
            lines.append(indentation + "type: array")
            lines.append(indentation + "items:")
        }
        lines.append(String(repeating: "  ", count: levels + 3) + "type: string")
        let output = try SwitchyardGenerator.generate(yaml: lines.joined(separator: "\n") + "\n", file: "Deep.openapi.yaml")
        #expect(output.swift.contains("typealias Deep = " + String(repeating: "[", count: levels) + "String"))
    }

    @Test("a mapping too large to look keys up in bounded time fails fast")
    func mapping() {
        let keys = (0..<20_000).map { "k\($0): 1" }.joined(separator: ", ")
        let text = "openapi: 3.1.0\ninfo: { title: Wide, version: '1' }\npaths: {}\nx-wide: { \(keys) }\n"
        let (errors, seconds) = Self.timed { try SwitchyardGenerator.generate(yaml: text, file: "Wide.openapi.yaml") }
        #expect(errors.count == 1 && errors.first?.hasPrefix("Wide.openapi.yaml:4:") == true, "\(errors)")
        #expect(errors.first?.contains("mappings grow too large to read here") == true, "\(errors)")
        #expect(seconds < 2, "\(seconds) s")
    }

    @Test("a document larger than the limit is refused before it is parsed")
    func size() {
        let text = "openapi: 3.1.0\n# " + String(repeating: "x", count: 16 << 20) + "\n"
        let (errors, seconds) = Self.timed { try SwitchyardGenerator.generate(yaml: text, file: "Big.openapi.yaml") }
        #expect(
            errors == ["Big.openapi.yaml:1:1: error: the file has 16777234 bytes; the generator reads documents of at most 16777216 bytes"]
        )
        #expect(seconds < 1, "\(seconds) s")
    }

    @Test("bytes that are not UTF-8 are an error at their line and column, from the library and the command line")
    func utf8() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-utf8-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Latin.openapi.yaml")
        try Data("openapi: 3.1.0\ninfo:\n  title: Caf\u{E9} ".utf8 + [0xE9] + "\n  version: '1'\npaths: {}\n".utf8).write(to: file)
        let expected = "\(file.path):3:15: error: the file is not valid UTF-8: the byte 0xE9 cannot stand here; save the file as UTF-8"
        #expect(throws: DescriptionErrors.self) { try SwitchyardGenerator.readDocument(atPath: file.path) }
        do {
            _ = try SwitchyardGenerator.readDocument(atPath: file.path)
        } catch {
            #expect(error.description == expected)
        }
        let validated = try await CommandLineTests.run(["validate", file.path])
        #expect(validated.status == 1 && validated.errors == expected + "\n", "\(validated.errors)")
        let utf16 = directory.appendingPathComponent("Wide.openapi.yaml")
        try Data([0xFF, 0xFE, 0x6F, 0x00]).write(to: utf16)
        #expect(throws: DescriptionErrors.self) { try SwitchyardGenerator.readDocument(atPath: utf16.path) }
    }
}

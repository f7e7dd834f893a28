import Foundation
import SwitchyardGenCore
import Testing

/// What the OpenAPI documents teams publish use, on small documents of our own that show each construct
/// (the corpus check, `Scripts/check-openapi-corpus.sh`, compiles the whole documents): recognition by
/// content, namespaces, names that cannot collide, JSON read as JSON, bounds, `const` enumerations,
/// status ranges, `null`, free-form JSON, `additionalProperties`, annotated references and webhooks.
@Suite("OpenAPI documents as published")
struct OpenAPIRealDocumentTests {
    static let corpus = GoldenTests.directory.deletingLastPathComponent().appendingPathComponent("OpenAPICorpus/Documents")

    static func generate(_ document: String) throws -> SwitchyardGenerator.Output {
        let text = try String(contentsOf: corpus.appendingPathComponent(document), encoding: .utf8)
        return try SwitchyardGenerator.generate(yaml: text, file: document)
    }

    static func errors(_ text: String, file: String) -> [String] {
        do {
            _ = try SwitchyardGenerator.generate(yaml: text, file: file)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test("a document is recognised by its content, whatever its name; a description file is not taken for one")
    func recognisedByContent() throws {
        let output = try Self.generate("petstore.yaml")
        #expect(output.warnings.isEmpty, "\(output.warnings)")
        #expect(output.swift.contains("enum PetstoreAPI") && output.swift.contains("struct ListPets: Endpoint"))
        #expect(OpenAPIImporter.isDocument(text: "# a comment\nopenapi: 3.1.0\ninfo: {}\n"))
        #expect(OpenAPIImporter.isDocument(text: "\u{FEFF}{\"info\": {\"openapi\": 1}, \"openapi\": \"3.1.0\"}"))
        #expect(OpenAPIImporter.isDocument(text: "{\"swagger\":\"2.0\"}"))
        // `openapi` nested, or in a string, is not the document's key.
        #expect(!OpenAPIImporter.isDocument(text: "{\"info\": {\"openapi\": \"3.1.0\"}, \"x\": \"openapi:\"}"))
        #expect(!OpenAPIImporter.isDocument(text: "version: 1\nname: Catalog\n  openapi: 3.1.0\n"))
        let description = try String(contentsOf: GoldenTests.fixture, encoding: .utf8)
        #expect(!OpenAPIImporter.isDocument(text: description))
    }

    @Test("endpoints and models are members of the namespace, unless the configuration says otherwise")
    func namespaced() throws {
        let output = try Self.generate("petstore.yaml")
        #expect(output.description.namespaced)
        #expect(
            output.swift.contains("extension PetstoreAPI {\n")
                && output.swift.contains("\n    internal struct Pet: Codable, Sendable, Hashable {")
        )
        let text = try String(contentsOf: Self.corpus.appendingPathComponent("petstore.yaml"), encoding: .utf8)
        let flat = try SwitchyardGenerator.generate(yaml: text, file: "petstore.yaml", configuration: "namespaced: false\n")
        #expect(
            !flat.description.namespaced && !flat.swift.contains("extension PetstoreAPI")
                && flat.swift.contains("\ninternal struct Pet: Codable")
        )
        #expect(
            Self.errors(text.replacingOccurrences(of: "info:", with: "x-switchyard-namespaced: maybe\ninfo:"), file: "p.yaml").count == 1
        )
    }

    @Test("parameters named like the generated code's locals and Swift keywords are read through self, never shadowed")
    func collisionProofNames() throws {
        let output = try Self.generate("box-hubs.yaml")
        #expect(output.warnings.isEmpty, "\(output.warnings)")
        let swift = output.swift
        #expect(swift.contains("var query: String?") && swift.contains("var `default`: String?") && swift.contains("var selfValue: Bool?"))
        #expect(swift.contains("var query = QueryWriter()"))
        #expect(swift.contains("if let value = self.query { query.scalar(\"query\", value) }"))
        #expect(swift.contains("if let value = self.value { query.scalar(\"value\", String(value)) }"))
        #expect(swift.contains("if let value = self.`default` { query.scalar(\"default\", value) }"))
        #expect(swift.contains("if let value = self.fields { fields[HTTPField.Name(\"fields\")!] = value }"))
        #expect(!swift.contains("if let query {") && !swift.contains("if let fields {"))
    }

    @Test("JSON is read as JSON: surrogate pairs, escaped slashes and tabs, with lines kept for messages")
    func jsonAsJSON() throws {
        let output = try Self.generate("twilio-reactions.json")
        #expect(output.warnings.isEmpty, "\(output.warnings)")
        #expect(output.swift.contains("case \"👍\": self = ") && output.swift.contains("\"plain/slash\""))
        #expect(output.swift.contains("The 😀 reaction") && output.swift.contains("lone \u{FFFD} surrogate"))
        // An error after a surrogate pair is still on its line.
        let broken = "{\n\t\"openapi\": \"3.1.0\",\n\t\"info\": {\"title\": \"\\ud83d\\udc4d\", \"version\": \"1\"},\n\t\"paths\": 5\n}\n"
        let errors = Self.errors(broken, file: "broken.json")
        #expect(errors.count == 1 && errors.first?.hasPrefix("broken.json:4:") == true, "\(errors)")
        #expect(OpenAPIImporter.isDocument(text: broken))
    }

    @Test("an integer bound no 64-bit integer holds is a warning at its line, and the document is generated")
    func unrepresentableBound() throws {
        let output = try Self.generate("openai-bounds.yaml")
        let warnings = output.warnings.map(\.description)
        // The document's other warning is its 3.0 `nullable` on the next line (the forms tests cover it).
        #expect(warnings.count == 2 && warnings.last?.hasPrefix("openai-bounds.yaml:58:11: warning: 'nullable'") == true, "\(warnings)")
        #expect(
            warnings.first?.hasPrefix(
                "openai-bounds.yaml:57:11: warning: the integer bound 'maximum: 9223372036854776000' is not a 64-bit integer; it is ignored"
            ) == true
        )
        #expect(output.swift.contains("var seed: Int?"))
    }

    @Test("type null, free-form members and additionalProperties keep their data as JSON values and dictionaries")
    func freeFormAndNull() throws {
        let swift = try Self.generate("openai-bounds.yaml").swift
        #expect(swift.contains("indirect enum JSONValue: Codable, Sendable, Hashable"))
        #expect(swift.contains("var metadata: [String: JSONValue]?") && swift.contains("var toolChoice: JSONValue?"))
        #expect(swift.contains("var streamOptions: JSONValue?") && swift.contains("var usage: JSONValue?"))
        #expect(swift.contains("var logitBias: [String: Int]?") && swift.contains("var maxTokens: Int?"))
        // oneOf [string, [string], null]: an optional union of the two others.
        #expect(swift.contains("var prompt: CreateCompletionRequestPrompt?"))
        let box = try Self.generate("box-hubs.yaml").swift
        #expect(box.contains("typealias Settings = [String: JSONValue]") && box.contains("var metadata: [String: JSONValue]?"))
        #expect(box.contains("struct Labels: Codable") && box.contains("var additionalProperties: [String: Int]"))
        #expect(box.contains("private static let namedKeys: Set<String> = [\"color\"]"))
    }

    @Test("allOf of a reference and a description is the reference, without warnings")
    func annotatedReferences() throws {
        let output = try Self.generate("box-hubs.yaml")
        #expect(output.warnings.isEmpty)
        #expect(
            output.swift.contains("var ownedBy: User?") && output.swift.contains("init(hubId: String, fields: String? = nil, payload: Hub")
        )
    }

    @Test("oneOf of const branches is an enumeration, integer or string, in models and query parameters")
    func constEnumerations() throws {
        let output = try Self.generate("discord-consts.json")
        #expect(output.warnings.isEmpty, "\(output.warnings)")
        let swift = output.swift
        #expect(swift.contains("enum ChannelTypes: Codable, Sendable, Hashable") && swift.contains("case guildText"))
        #expect(swift.contains("case 15: self = .guildForum") && swift.contains("case unknown(Int)"))
        #expect(swift.contains("enum VideoQualityModes: Codable") && swift.contains("case \"full\": self = .full"))
        #expect(swift.contains("var type: ChannelTypes?") && swift.contains("query.scalar(\"type\", \"\\(value.rawValue)\")"))
        #expect(swift.contains("var videoQualityMode: VideoQualityModes?") && swift.contains("var parentId: SnowflakeType?"))
    }

    @Test("4XX and 5XX ranges and default are matched after the statuses they do not name")
    func statusRanges() throws {
        let swift = try Self.generate("discord-consts.json").swift
        #expect(swift.contains("case 429: return"))
        #expect(
            swift.contains(
                "case 400...499: return (try? decoder.decode(ErrorResponse.self, from: response.bytes)).map { .clientError($0) }"
            )
        )
        #expect(swift.contains("case 500...599: return"))
        let list = try #require(swift.range(of: "case 429: return")?.lowerBound)
        let range = try #require(swift.range(of: "case 400...499: return")?.lowerBound)
        #expect(list < range)
        // 201 and 2XX with the same body: one output type.
        #expect(swift.contains("struct CreateGuildChannel: Endpoint") && swift.contains("typealias Output = GuildChannelResponse"))
    }

    @Test("webhooks become documented body types; 3.1 operations without responses are generated")
    func webhooks() throws {
        let text = """
            openapi: 3.1.0
            info: { title: Hooks, version: '1' }
            paths:
              /ping:
                get:
                  operationId: ping
            webhooks:
              newPet:
                post:
                  summary: A pet was added.
                  requestBody:
                    content:
                      application/json:
                        schema: { $ref: '#/components/schemas/Pet' }
              petGone:
                post:
                  requestBody:
                    content:
                      application/json:
                        schema: { type: object, properties: { id: { type: integer } } }
              bare:
                post:
                  requestBody:
                    content:
                      text/plain:
                        schema: { type: string }
            components:
              schemas:
                Pet: { type: object, properties: { name: { type: string } } }

            """
        let output = try SwitchyardGenerator.generate(yaml: text, file: "hooks.yaml")
        #expect(output.swift.contains("typealias NewPetWebhook = Pet") && output.swift.contains("struct PetGoneWebhook: Codable"))
        #expect(
            output.swift.contains("/// The body of the `newPet` webhook: what the API sends with `POST` to the app (A pet was added.).")
        )
        #expect(output.swift.contains("struct Ping: Endpoint"))
        #expect(
            output.warnings.map(\.description) == [
                "hooks.yaml:1:1: warning: the document has no absolute server URL; give the environments in the configuration file",
                "hooks.yaml:22:5: warning: webhook 'bare' has no JSON body; the app gets no type for what it receives",
            ]
        )
    }

    @Test("YAML is read by the YAML 1.2 core schema: yes, no and dates stay strings")
    func yaml12() throws {
        let text = """
            openapi: 3.1.0
            info: { title: Answers, version: '1' }
            servers: [{ url: 'https://answers.example' }]
            paths: {}
            components:
              schemas:
                Answer: { type: string, enum: [yes, no, on, 2024-01-01] }

            """
        let output = try SwitchyardGenerator.generate(yaml: text, file: "answers.yaml")
        #expect(output.warnings.isEmpty, "\(output.warnings)")
        guard case .stringEnum(let values)? = output.description.models.first?.kind else {
            Issue.record("Answer is not a string enumeration")
            return
        }
        #expect(values == ["yes", "no", "on", "2024-01-01"])
    }

    @Test("YAML 1.1's Booleans and numbers that YAML 1.2 reads otherwise: y, n, off, 1_000, 0b101 are strings, 0755 is 755")
    func yaml12Numbers() throws {
        let text = """
            openapi: 3.1.0
            info: { title: Modes, version: '1' }
            servers: [{ url: 'https://modes.example' }]
            paths: {}
            components:
              schemas:
                Answer: { type: string, enum: [y, n, off, Off, 1_000, 0b101, '1:30', .iNf, true-ish] }
                Mode: { oneOf: [{ const: 0755 }, { const: 0o17 }, { const: 0x1F }, { const: -012 }, { const: 12 }] }

            """
        let output = try SwitchyardGenerator.generate(yaml: text, file: "modes.yaml")
        #expect(output.warnings.isEmpty, "\(output.warnings)")
        let kinds = Dictionary(uniqueKeysWithValues: output.description.models.map { ($0.name, $0.kind) })
        guard case .stringEnum(let strings)? = kinds["Answer"], case .integerEnum(let integers, _)? = kinds["Mode"] else {
            Issue.record("not a string and an integer enumeration: \(kinds)")
            return
        }
        #expect(strings == ["y", "n", "off", "Off", "1_000", "0b101", "1:30", ".iNf", "true-ish"])
        #expect(integers == [755, 15, 31, -12, 12])
    }

    @Test("a plain 1_000 is no number in YAML 1.2: an integer bound written so is ignored with a warning at its place")
    func yaml12UnderscoreBound() throws {
        let line = "    Count: { type: integer, maximum: 1_000 }"
        let text = """
            openapi: 3.1.0
            info: { title: Bounds, version: '1' }
            servers: [{ url: 'https://bounds.example' }]
            paths: {}
            components:
              schemas:
            \(line)

            """
        let warnings = try SwitchyardGenerator.generate(yaml: text, file: "bounds.yaml").warnings.map(\.description)
        #expect(
            warnings == [
                "bounds.yaml:7:\(Self.column(of: "maximum", in: line)): warning: the integer bound 'maximum: 1_000' is not a 64-bit integer;"
                    + " it is ignored (the generated code checks no bounds, so the app misses nothing)"
            ]
        )
    }

    /// The 1-based column of `needle`'s first occurrence in `line`, in Unicode scalars.
    static func column(of needle: String, in line: String) -> Int {
        let scalars = Array(line.unicodeScalars)
        let target = Array(needle.unicodeScalars)
        let start = (0...(scalars.count - target.count)).first { Array(scalars[$0..<($0 + target.count)]) == target } ?? -1
        return start + 1
    }

    @Test("JSON columns count the text as written: an error or a warning after a surrogate pair on its line")
    func jsonColumnsAfterSurrogatePair() throws {
        let line = #"  "info": {"title": "\ud83d\udc4d \/ \ud83d\ude00", "version": "1"}, "paths": 5"#
        let broken = "{\n  \"openapi\": \"3.1.0\",\n\(line)\n}\n"
        let errors = Self.errors(broken, file: "broken.json")
        let paths = Self.column(of: "\"paths\"", in: line)
        #expect(errors.count == 1 && errors.first?.hasPrefix("broken.json:3:\(paths):") == true, "\(errors)")

        let syntax = #"{"openapi": "3.1.0", "info": {"title": "\ud83d\udc4d", "version": "1"} "paths": {}}"#
        let syntaxErrors = Self.errors(syntax, file: "syntax.json")
        #expect(
            syntaxErrors.count == 1 && syntaxErrors.first?.hasPrefix("syntax.json:1:\(Self.column(of: "\"paths\"", in: syntax)):") == true,
            "\(syntaxErrors)"
        )

        let schemas = #"    "Seed": {"description": "\ud83c\udf31", "type": "integer", "maximum": 9223372036854776000}"#
        let bounded = """
            {"openapi": "3.1.0", "info": {"title": "Seeds", "version": "1"}, "servers": [{"url": "https://seeds.example"}],
              "paths": {}, "components": {"schemas": {
            \(schemas)
            }}}
            """
        let output = try SwitchyardGenerator.generate(yaml: bounded, file: "seeds.json")
        let warnings = output.warnings.map(\.description)
        let maximum = Self.column(of: "\"maximum\"", in: schemas)
        #expect(warnings.count == 1 && warnings.first?.hasPrefix("seeds.json:3:\(maximum):") == true, "\(warnings)")
    }

    @Test("JSON keeps its members' order, and a string that looks like a number or a Boolean stays a string")
    func jsonOrderAndStrings() throws {
        let text = #"""
            {"openapi": "3.0.3", "info": {"title": "Order", "version": "1"}, "servers": [{"url": "https://order.example"}],
             "paths": {}, "components": {"schemas": {
               "Zebra": {"type": "object", "properties": {"z": {"type": "string"}, "a": {"type": "string"}, "m": {"type": "string"}}},
               "Apple": {"type": "string", "enum": ["yes", "0755", "1_000", "true", "null"]}}}}
            """#
        let output = try SwitchyardGenerator.generate(yaml: text, file: "order.json")
        #expect(output.description.models.map(\.name) == ["Zebra", "Apple"])
        let swift = output.swift
        let positions = ["var z:", "var a:", "var m:"].compactMap { swift.range(of: $0)?.lowerBound }
        #expect(positions.count == 3 && positions == positions.sorted(), "members out of order")
        guard case .stringEnum(let values)? = output.description.models.last?.kind else {
            Issue.record("Apple is not a string enumeration")
            return
        }
        #expect(values == ["yes", "0755", "1_000", "true", "null"])
    }

    @Test("a JSON document's x-switchyard-* mistakes are reported at the extension's line and column")
    func jsonExtensionPlaces() {
        let line = #"  "x-switchyard-nme": "A", "x-switchyard-timeout": "soon", "#
        let text = """
            {"openapi": "3.1.0", "info": {"title": "\\ud83d\\udc4d", "version": "1"},
            \(line)
              "paths": {}}
            """
        let errors = Self.errors(text, file: "ext.json")
        let timeout = Self.column(of: "\"x-switchyard-timeout\"", in: line)
        #expect(errors == ["ext.json:2:\(timeout): error: 'x-switchyard-timeout' must be a number"])
    }
}

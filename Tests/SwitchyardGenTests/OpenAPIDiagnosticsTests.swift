import Foundation
import SwitchyardGenCore
import Testing

/// Unsupported constructs become warnings with line and column (errors with `--strict`); a malformed
/// document is an error with line and column, never a crash.
@Suite("OpenAPI warnings and errors")
struct OpenAPIDiagnosticsTests {
    static let odd = """
        openapi: 3.1.0
        info:
          title: Odd
          version: '1'
        servers:
          - url: https://odd.example
        paths:
          /things:
            get:
              operationId: listThings
              x-switchyard-colour: red
              parameters:
                - name: session
                  in: cookie
                  schema:
                    type: string
              responses:
                '200':
                  description: The things.
                  content:
                    application/json:
                      schema:
                        $ref: '#/components/schemas/Thing'
        components:
          schemas:
            Thing:
              type: object
              properties:
                name:
                  type: string
                odd:
                  not:
                    type: string
                extra:
                  type: object

        """

    static func errors(_ text: String, file: String, strict: Bool = false) -> [String] {
        do {
            _ = try SwitchyardGenerator.generate(yaml: text, file: file, strict: strict)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test("each unsupported construct is a warning at its line and column naming it; the rest is generated")
    func warnings() throws {
        let output = try SwitchyardGenerator.generate(yaml: Self.odd, file: "Odd.openapi.yaml")
        let warnings = output.warnings.map(\.description)
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("Odd.openapi.yaml:11:7: warning: unknown extension 'x-switchyard-colour'") })
        #expect(warnings.contains { $0.hasPrefix("Odd.openapi.yaml:13:11: warning: unsupported parameter location 'cookie' of 'session'") })
        #expect(output.swift.contains("struct ListThings: Endpoint") && output.swift.contains("var name: String?"))
        #expect(!output.swift.contains("session"))
        // What the generator cannot narrow down ('not', a free-form object) is kept as JSON, not left out.
        #expect(output.swift.contains("var odd: JSONValue?") && output.swift.contains("var extra: [String: JSONValue]?"))
    }

    @Test("strict: the same warnings are errors, and nothing is generated")
    func strict() {
        let errors = Self.errors(Self.odd, file: "Odd.openapi.yaml", strict: true)
        #expect(errors.count == 2)
        #expect(
            errors.contains(
                "Odd.openapi.yaml:13:11: error: unsupported parameter location 'cookie' of 'session'; the parameter is left out"
            ),
            "\(errors)"
        )
    }

    @Test("a YAML syntax error is reported where the parser stopped")
    func syntax() {
        let errors = Self.errors("openapi: 3.1.0\ninfo:\n  title: [unclosed\n  version: '1'\npaths: {}\n", file: "Bad.openapi.yaml")
        #expect(errors.count == 1)
        #expect(
            errors.first?.hasPrefix("Bad.openapi.yaml:4:") == true || errors.first?.hasPrefix("Bad.openapi.yaml:5:") == true,
            "\(errors)"
        )
        #expect(errors.first?.contains("error: the file is not valid YAML") == true)
    }

    @Test("a document OpenAPIKit cannot decode is reported at the construct it names")
    func structure() {
        let yaml = "openapi: 3.0.3\ninfo:\n  title: Bad\n  version: '1'\npaths:\n  /x:\n    get:\n      responses: 5\n"
        let errors = Self.errors(yaml, file: "Bad.openapi.yaml")
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("Bad.openapi.yaml:8:7: error: the document is not a valid OpenAPI document") == true, "\(errors)")
        let json = "{\n  \"openapi\": \"3.1.0\",\n  \"info\": {\n    \"title\": \"No version\"\n  },\n  \"paths\": {}\n}\n"
        let jsonErrors = Self.errors(json, file: "bad.openapi.json")
        #expect(
            jsonErrors.first?.hasPrefix("bad.openapi.json:3:3: error: the document is not a valid OpenAPI document") == true,
            "\(jsonErrors)"
        )
    }

    @Test("only OpenAPI 3.0, 3.1 and 3.2 are read; a Swagger 2.0 document is told what to do")
    func versions() {
        let errors = Self.errors("swagger: '2.0'\ninfo: {title: Old, version: '1'}\npaths: {}\n", file: "old.yaml")
        #expect(errors.count == 1 && errors.first?.hasPrefix("old.yaml:1:1: error: this is a Swagger 2.0 document;") == true, "\(errors)")
        #expect(errors.first?.contains("convert it first") == true)
        #expect(
            Self.errors("openapi: 4.0.0\ninfo: {title: New, version: '1'}\npaths: {}\n", file: "new.yaml") == [
                "new.yaml:1:1: error: 'openapi' must be a 3.0.x, 3.1.x or 3.2.x version, not '4.0.0'"
            ]
        )
        #expect(Self.errors("", file: "empty.openapi.yaml") == ["empty.openapi.yaml:1:1: error: the document is empty"])
    }

    @Test("x-switchyard extensions of the wrong kind are errors at their place")
    func badExtensions() {
        let yaml = Self.odd.replacingOccurrences(of: "x-switchyard-colour: red", with: "x-switchyard-cache: sometimes")
        let errors = Self.errors(yaml, file: "Odd.openapi.yaml")
        #expect(errors.count == 1 && errors.first?.hasPrefix("Odd.openapi.yaml:") == true)
        #expect(errors.first?.contains("unknown cache policy 'sometimes'") == true, "\(errors)")
    }

    @Test("the configuration file replaces the servers' environments and names the namespace and service")
    func configuration() throws {
        let config = "name: Oddities\naccess: public\nservice: odd-things\nenvironments:\n  develop: http://127.0.0.1:9000/odd\n"
        let output = try SwitchyardGenerator.generate(yaml: Self.odd, file: "Odd.openapi.yaml", configuration: config)
        let service = try #require(output.description.services.first)
        #expect(output.description.name == "Oddities" && output.description.access == .public && service.id == "odd-things")
        #expect(service.environments.map(\.name) == ["develop"] && service.environments.first?.url == "http://127.0.0.1:9000/odd")
        #expect(output.swift.contains("public enum OdditiesAPI"))
        #expect(throws: DescriptionErrors.self) {
            try SwitchyardGenerator.generate(yaml: Self.odd, file: "Odd.openapi.yaml", configuration: "colour: red\n")
        }
        #expect(OpenAPIConfiguration.fileName(forDocument: "Petstore.openapi.yaml") == "Petstore.openapi.switchyard-config.yaml")
        #expect(OpenAPIConfiguration.fileName(forDocument: "openapi.json") == "openapi.switchyard-config.yaml")
    }

    @Test("a parameter whose type cannot be written as text and an operation with an undeclared path placeholder are left out")
    func leftOut() throws {
        let yaml = """
            openapi: 3.1.0
            info: { title: Gaps, version: '1' }
            servers: [{ url: 'https://gaps.example' }]
            paths:
              /items:
                get:
                  operationId: listItems
                  parameters:
                    - name: extra
                      in: query
                      schema: { type: object, additionalProperties: { type: string } }
                  responses: { '204': { description: None. } }
              /items/{id}:
                get:
                  operationId: getItem
                  responses: { '204': { description: None. } }
            webhooks:
              itemAdded:
                post:
                  responses: { '200': { description: Seen. } }

            """
        let output = try SwitchyardGenerator.generate(yaml: yaml, file: "Gaps.openapi.yaml")
        #expect(
            output.warnings.map(\.description) == [
                "Gaps.openapi.yaml:11:11: warning: unsupported query parameter type '[string: string]' of 'extra' (only scalars, string enumerations,"
                    + " arrays of them and, in the query, objects of them); it is left out",
                "Gaps.openapi.yaml:14:5: warning: operation 'GetItem' is left out: its path parameter '{id}' has no declaration",
            ]
        )
        #expect(output.description.services.first?.endpoints.map(\.name) == ["ListItems"])
        #expect(output.swift.contains("struct ListItems: Endpoint") && !output.swift.contains("extra"))
    }
}

import Foundation
import SwitchyardGenCore
import Testing

/// Every kind of mistake in a description is reported at its line and column with a message a person
/// understands — and all of them at once, not only the first.
@Suite("Description errors")
struct DescriptionErrorTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let yaml: String
        let line: Int
        let column: Int
        let message: String
        var description: String { name }
    }

    static let service = """
        version: 1
        services:
          shop:
            environments: { develop: "http://127.0.0.1:8080" }
            endpoints:

        """

    static let cases: [Case] = [
        Case(
            name: "unknown type",
            yaml: service + """
                      GetItem:
                        path: /items/{id}
                        parameters: { id: int }
                        response: Itme
                models:
                  Item: { fields: { id: int } }
                """,
            line: 6,
            column: 7,
            message: "unknown type 'Itme': declare it under 'models'; did you mean 'Item'?"
        ),
        Case(
            name: "unknown field type",
            yaml: service + """
                      GetItem: { path: /items, response: Item }
                models:
                  Item: { fields: { owner: Person? } }
                """,
            line: 8,
            column: 21,
            message: "unknown type 'Person'"
        ),
        Case(
            name: "duplicate endpoint name",
            yaml: service + """
                      GetItem: { path: /a }
                  other:
                    environments: { develop: "http://127.0.0.1:8081" }
                    endpoints:
                      GetItem: { path: /b }
                """,
            line: 10,
            column: 7,
            message: "duplicate endpoint name 'GetItem'; it is already declared at 6:7"
        ),
        Case(
            name: "model named like an endpoint",
            yaml: service + """
                      Item: { path: /a }
                models:
                  Item: { fields: { id: int } }
                """,
            line: 8,
            column: 3,
            message: "duplicate model name 'Item'; it is already declared at 6:7"
        ),
        Case(
            name: "path parameter without a declaration",
            yaml: service + """
                      GetItem:
                        path: /items/{id}/parts/{part}
                        parameters: { id: int }
                """,
            line: 6,
            column: 7,
            message: "path parameter '{part}' of 'GetItem' has no declaration under 'parameters'"
        ),
        Case(
            name: "path parameter not in the path",
            yaml: service + """
                      GetItem:
                        path: /items
                        parameters:
                          id: { type: int, in: path }
                """,
            line: 9,
            column: 11,
            message: "path parameter 'id' does not appear in the path '/items'"
        ),
        Case(
            name: "misspelt key",
            yaml: service + """
                      GetItem:
                        methd: POST
                        path: /items
                """,
            line: 7,
            column: 9,
            message: "unknown key 'methd' in endpoint 'GetItem'; expected one of: method, path"
        ),
        Case(
            name: "unknown method",
            yaml: service + """
                      GetItem: { method: FETCH, path: /items }
                """,
            line: 6,
            column: 7,
            message: "unknown method 'FETCH' for 'GetItem'"
        ),
        Case(
            name: "not a type",
            yaml: service + """
                      GetItem:
                        path: /items
                        parameters: { page: "in t" }
                """,
            line: 8,
            column: 29,
            message: "'in t' is not a type"
        ),
        Case(
            name: "default of the wrong type",
            yaml: service + """
                      GetItem:
                        path: /items
                        parameters:
                          page: { type: int, default: first }
                """,
            line: 9,
            column: 39,
            message: "the default 'first' of 'page' is not a int"
        ),
        Case(
            name: "unknown cache policy",
            yaml: service + """
                      GetItem:
                        path: /items
                        options: { cache: cacheElseNetwrk }
                """,
            line: 8,
            column: 18,
            message:
                "unknown cache policy 'cacheElseNetwrk'; expected one of: networkOnly, cacheElseNetwork, networkElseCache, revalidate, cacheOnly; did you mean 'cacheElseNetwork'?"
        ),
        Case(
            name: "body parameter on GET",
            yaml: service + """
                      GetItem:
                        path: /items
                        parameters:
                          q: { type: string, in: body }
                """,
            line: 9,
            column: 11,
            message: "body parameter 'q' on a GET endpoint"
        ),
        Case(
            name: "environment a typo away from a well-known one",
            yaml: """
                services:
                  shop:
                    environments: { relase: "http://127.0.0.1:8080" }
                """,
            line: 2,
            column: 3,
            message: "unknown environment 'relase'; did you mean 'release'?"
        ),
        Case(
            name: "environment name that no ServerEnvironment can hold",
            yaml: """
                services:
                  shop:
                    environments: { 1st: "http://127.0.0.1:8080" }
                """,
            line: 2,
            column: 3,
            message: "environment '1st' must be 1 to 64 ASCII letters"
        ),
        Case(
            name: "bad base URL",
            yaml: """
                services:
                  shop:
                    environments: { develop: "ftp:/nohost" }
                """,
            line: 2,
            column: 3,
            message: "the develop base URL 'ftp:/nohost' of 'shop' is not an http or https URL with a host"
        ),
        Case(
            name: "YAML syntax",
            yaml: """
                services:
                  shop: { environments: [unclosed
                """,
            line: 3,
            column: 1,
            message: "the file is not valid YAML"
        ),
        Case(
            name: "duplicate key",
            yaml: service + """
                      GetItem: { path: /a }
                      GetItem: { path: /b }
                """,
            line: 7,
            column: 7,
            message: "duplicate key 'GetItem' in one mapping (first at 6:7)"
        ),
        Case(name: "no services", yaml: "version: 1\n", line: 1, column: 1, message: "the description has no 'services'"),
        Case(
            name: "a model shadowing a type the code uses",
            yaml: service + """
                      GetItem: { path: /items, response: Data }
                models:
                  Data: { fields: { id: int } }
                """,
            line: 8,
            column: 3,
            message: "model name 'Data' would shadow a type the generated code uses"
        ),
        Case(
            name: "a name that is not a type name",
            yaml: """
                name: my-api
                services:
                  shop:
                    environments: { develop: "http://127.0.0.1:8080" }
                """,
            line: 1,
            column: 7,
            message: "'name' must be an upper-camel Swift type name"
        ),
        Case(
            name: "maxAge without cacheElseNetwork",
            yaml: service + """
                      GetItem:
                        path: /items
                        options: { cache: { policy: revalidate, maxAge: 10 } }
                """,
            line: 8,
            column: 18,
            message: "'maxAge' applies only to the cache policy cacheElseNetwork"
        ),
    ]

    @Test("each mistake is reported at its line and column", arguments: cases)
    func reported(_ testCase: Case) throws {
        do {
            _ = try DescriptionParser.parse(yaml: testCase.yaml, file: "Shop.switchyard.yaml")
            Issue.record("\(testCase.name): the description was accepted")
        } catch {
            let match = error.errors.first { $0.message.contains(testCase.message) }
            let found = try #require(match, "\(testCase.name): no error says “\(testCase.message)”; got:\n\(error)")
            #expect(
                found.location.line == testCase.line && found.location.column == testCase.column,
                "\(testCase.name): at \(found.location), expected \(testCase.line):\(testCase.column)"
            )
            #expect(found.description.hasPrefix("Shop.switchyard.yaml:\(found.location.line):\(found.location.column): error: "))
        }
    }

    @Test("an environment of the team's own is accepted and generated as a ServerEnvironment")
    func ownEnvironment() throws {
        let yaml = """
            services:
              shop:
                environments: { Release: "https://shop.example.com", uat: "https://uat.shop.example.com" }
                endpoints:
                  GetItem: { path: /items }
            """
        let output = try SwitchyardGenerator.generate(yaml: yaml, file: "Shop.switchyard.yaml")
        #expect(output.swift.contains(#".release: "https://shop.example.com""#))
        #expect(output.swift.contains(#"ServerEnvironment("uat"): "https://uat.shop.example.com""#))
    }

    @Test("several mistakes are all reported, in file order")
    func all() throws {
        let yaml =
            Self.service + """
                      GetItem:
                        path: items/{id}
                        response: Nope
                      BadName_: { path: /x, method: GRAB }
                """
        do {
            _ = try DescriptionParser.parse(yaml: yaml, file: "Shop.switchyard.yaml")
            Issue.record("accepted")
        } catch {
            let messages = error.errors.map(\.message)
            #expect(messages.contains { $0.contains("must start with '/'") })
            #expect(messages.contains { $0.contains("'{id}' of 'GetItem' has no declaration") })
            #expect(messages.contains { $0.contains("unknown type 'Nope'") })
            #expect(messages.contains { $0.contains("unknown method 'GRAB'") })
            let lines = error.errors.map(\.location.line)
            #expect(lines == lines.sorted())
        }
    }
}

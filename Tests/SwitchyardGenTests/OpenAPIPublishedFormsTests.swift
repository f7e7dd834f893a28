import Foundation
import SwitchyardGenCore
import Testing

/// Forms that publishers ship and the specification words otherwise: a 3.1 document still written in
/// 3.0's forms, an `allOf` that wraps a nullable reference, a parameter that is one value or an array of
/// them. Each is read — with a warning where the document says something 3.1 does not — never refused
/// whole or left out.
@Suite("OpenAPI forms publishers ship")
struct OpenAPIPublishedFormsTests {
    static func generate(_ text: String) throws -> SwitchyardGenerator.Output {
        try SwitchyardGenerator.generate(yaml: text, file: "Forms.openapi.yaml")
    }

    static let header = """
        openapi: 3.1.0
        info: { title: Forms, version: '1' }
        servers: [{ url: 'https://forms.example' }]

        """

    @Test("a 3.1 document in 3.0's forms is read, with a warning at each place: exclusive bounds as Booleans, nullable")
    func earlierForms() throws {
        let text =
            Self.header + """
                paths: {}
                components:
                  schemas:
                    Reading:
                      type: object
                      example: { nullable: true, exclusiveMinimum: true }
                      properties:
                        celsius:
                          type: number
                          minimum: -273.15
                          exclusiveMinimum: true
                        percent:
                          type: integer
                          maximum: 100
                          exclusiveMaximum: true
                        ratio:
                          type: number
                          exclusiveMaximum: false
                        note:
                          type: string
                          nullable: true
                        x-notes:
                          type: string
                          x-meta: { nullable: true }
                        default:
                          type: number
                          exclusiveMinimum: false
                """
        let output = try Self.generate(text)
        #expect(
            output.warnings.map(\.description) == [
                "Forms.openapi.yaml:14:11: warning: 'exclusiveMinimum: true' is OpenAPI 3.0's form; this 3.1 document's schema is"
                    + " read as 'exclusiveMinimum: -273.15' (3.1 writes the bound itself)",
                "Forms.openapi.yaml:18:11: warning: 'exclusiveMaximum: true' is OpenAPI 3.0's form; this 3.1 document's schema is"
                    + " read as 'exclusiveMaximum: 100' (3.1 writes the bound itself)",
                "Forms.openapi.yaml:21:11: warning: 'exclusiveMaximum: false' is OpenAPI 3.0's form; it bounds nothing more, so it is"
                    + " left out",
                "Forms.openapi.yaml:24:11: warning: 'nullable' is OpenAPI 3.0's keyword; it is read as 3.0 reads it (a 3.1 document"
                    + " writes type: [..., 'null'] or a 'null' choice)",
                // A member named like a keyword (`default`) is a schema all the same.
                "Forms.openapi.yaml:30:11: warning: 'exclusiveMinimum: false' is OpenAPI 3.0's form; it bounds nothing more, so it is"
                    + " left out",
            ]
        )
        #expect(output.swift.contains("var celsius: Double?") && output.swift.contains("var percent: Int?"))
        #expect(output.swift.contains("var note: String?"))
    }

    @Test("a 3.0 document's Boolean exclusive bound is its own form: no warning, even on an integer")
    func earlierFormsInTheirOwnVersion() throws {
        let text = """
            openapi: 3.0.3
            info: { title: Forms, version: '1' }
            servers: [{ url: 'https://forms.example' }]
            paths: {}
            components:
              schemas:
                Count:
                  type: object
                  properties:
                    value: { type: integer, minimum: 0, exclusiveMinimum: true, nullable: true }
            """
        let output = try Self.generate(text)
        #expect(output.warnings.isEmpty, "\(output.warnings)")
        #expect(output.swift.contains("var value: Int?"))
    }

    @Test("an allOf holding a oneOf of a reference and null is that reference, optional, without warnings")
    func nullableReferenceInAllOf() throws {
        let text =
            Self.header + """
                paths: {}
                components:
                  schemas:
                    Party:
                      type: object
                      required: [name]
                      properties:
                        name: { type: string }
                    Entry:
                      type: object
                      required: [approver]
                      properties:
                        approver:
                          description: Who approved it, if anyone.
                          allOf:
                            - oneOf:
                                - $ref: '#/components/schemas/Party'
                                - type: 'null'
                        labels:
                          allOf:
                            - type: array
                              items: { type: string }
                            - description: The entry's labels.
                    Approver:
                      allOf:
                        - anyOf:
                            - type: 'null'
                            - $ref: '#/components/schemas/Party'
                    Audited:
                      allOf:
                        - type: object
                          properties:
                            id: { type: string }
                        - oneOf:
                            - $ref: '#/components/schemas/Party'
                            - type: 'null'
                """
        let output = try Self.generate(text)
        #expect(output.warnings.isEmpty, "\(output.warnings)")
        #expect(output.swift.contains("var approver: Party?"))
        #expect(output.swift.contains("var labels: [String]?"))
        #expect(output.swift.contains("typealias Approver = Party?"))
        // Merged with an object, the nullable part adds its members, each optional.
        #expect(output.swift.contains("var id: String?") && output.swift.contains("var name: String?"))
    }

    @Test("a query parameter that is one value or an array of them is generated as the array form, in each spelling")
    func scalarOrArrayParameter() throws {
        let text =
            Self.header + """
                paths:
                  /search:
                    get:
                      operationId: search
                      parameters:
                        - name: tag
                          in: query
                          required: true
                          schema:
                            oneOf:
                              - type: string
                              - type: array
                                items: { type: string }
                        - name: id
                          in: query
                          schema:
                            anyOf:
                              - type: array
                                items: { type: integer, format: int64 }
                              - type: integer
                                format: int64
                              - type: 'null'
                        - name: kind
                          in: query
                          schema:
                            type: [string, array]
                            items: { type: string }
                      responses:
                        '204': { description: Done. }
                """
        let output = try Self.generate(text)
        #expect(output.warnings.isEmpty, "\(output.warnings)")
        #expect(output.swift.contains("var tag: [String]") && !output.swift.contains("var tag: [String]?"))
        #expect(output.swift.contains("var id: [Int64]?"))
        #expect(output.swift.contains("var kind: [String]?"))
        #expect(output.swift.contains(#"query.array("tag", self.tag, style: "form", explode: true)"#))
    }

    @Test("a member of 3.1 type [string, array] is a union of both forms, not its first type alone")
    func scalarOrArrayMember() throws {
        let text =
            Self.header + """
                paths: {}
                components:
                  schemas:
                    Recipient:
                      type: object
                      properties:
                        to:
                          type: [string, array]
                          items: { type: string }
                          maxLength: 200
                """
        let output = try Self.generate(text)
        #expect(output.warnings.isEmpty, "\(output.warnings)")
        #expect(output.swift.contains("case string(String)") && output.swift.contains("case array([String])"), "\(output.swift)")
    }
}

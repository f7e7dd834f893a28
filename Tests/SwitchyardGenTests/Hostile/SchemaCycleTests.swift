import SwitchyardGenCore
import Testing

/// Schemas that contain themselves with nothing between are refused with an error at their place;
/// a schema that holds itself through a property is generated, boxed.
@Suite("Schema cycles")
struct SchemaCycleTests {
    static func document(_ schemas: String) -> String {
        """
        openapi: 3.1.0
        info: { title: Loops, version: '1' }
        servers: [{ url: 'https://loops.example' }]
        paths:
          /a:
            get:
              operationId: getA
              responses:
                '200':
                  description: An A.
                  content: { application/json: { schema: { $ref: '#/components/schemas/A' } } }
        components:
          schemas:
        \(schemas)
        """
    }

    static func errors(_ schemas: String) -> [String] {
        GeneratedCodeInjectionTests.errors { try SwitchyardGenerator.generate(yaml: document(schemas), file: "Loops.openapi.yaml") }
    }

    @Test("an allOf that names its own schema is an error at the part")
    func selfAllOf() {
        let errors = Self.errors(
            """
                A:
                  allOf:
                    - $ref: '#/components/schemas/A'
                    - { type: object, properties: { id: { type: string } } }
            """
        )
        #expect(
            errors == [
                "Loops.openapi.yaml:16:11: error: schema 'A' includes itself through 'allOf' ('A' → 'A'); an 'allOf' cannot contain"
                    + " itself: refer to the schema from a property instead"
            ],
            "\(errors)"
        )
    }

    @Test("an allOf cycle through another schema is an error at the part that closes it")
    func indirectAllOf() {
        let errors = Self.errors(
            """
                A:
                  allOf: [{ $ref: '#/components/schemas/B' }, { type: object, properties: { a: { type: string } } }]
                B:
                  allOf: [{ $ref: '#/components/schemas/A' }, { type: object, properties: { b: { type: string } } }]
            """
        )
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.contains { $0.contains("error: schema 'A' includes itself through 'allOf' ('A' → 'B' → 'A')") }, "\(errors)")
        #expect(errors.contains { $0.contains("error: schema 'B' includes itself through 'allOf' ('B' → 'A' → 'B')") }, "\(errors)")
    }

    @Test("a schema that is another name for itself, directly or through an array, is an error at the schema")
    func aliases() {
        let errors = Self.errors(
            """
                A: { $ref: '#/components/schemas/B' }
                B: { $ref: '#/components/schemas/A' }
                L: { type: array, items: { $ref: '#/components/schemas/L' } }
            """
        )
        #expect(
            errors == [
                "Loops.openapi.yaml:14:5: error: schema 'A' is another name for itself ('A' → 'B' → 'A'), so no Swift type can hold it:"
                    + " give one of them properties, or refer to it from a property",
                "Loops.openapi.yaml:16:5: error: schema 'L' is another name for itself ('L' → 'L'), so no Swift type can hold it:"
                    + " give one of them properties, or refer to it from a property",
            ],
            "\(errors)"
        )
    }

    @Test("a union among whose cases is itself is an error: its decoder would call itself forever")
    func union() {
        let errors = Self.errors("    A: { anyOf: [{ $ref: '#/components/schemas/A' }, { type: string }] }")
        #expect(errors.count == 1 && errors.first?.contains("schema 'A' is a union that is one of its own cases ('A' → 'A')") == true)
    }

    @Test("a schema that holds itself through a property is generated, boxed")
    func property() throws {
        let output = try SwitchyardGenerator.generate(
            yaml: Self.document(
                "    A: { type: object, properties: { next: { $ref: '#/components/schemas/A' }, all: { allOf: [{ $ref: '#/components/schemas/A' }] } } }"
            ),
            file: "Loops.openapi.yaml"
        )
        #expect(output.swift.contains("private var _next: IndirectBox<A>?"))
    }
}

import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Yams

/// Decodes an OpenAPI 3.0.x, 3.1.x or 3.2.x document (YAML or JSON) with OpenAPIKit; a 3.0 document is
/// converted to 3.1 by OpenAPIKitCompat, so the rest of the importer reads one model (3.2's, a superset of
/// 3.1's: its `itemSchema` types streamed answers).
///
/// YAML is read by YAML 1.2's core schema (`yes`, `no`, `on`, `off`, `0b1`, `1_000` stay strings, `0755` is
/// 755: ``repaired(_:path:warn:)``), and JSON as JSON: the text is scanned once for its places
/// by JSON's grammar into a tree and its places (``JSONLocator``), so every message has the line and
/// column of the text as written, surrogate pair escapes included.
enum OpenAPIDocumentLoader {
    /// The resolver Yams's decoder itself composes with: no scalar is typed when the tree is composed
    /// (each type decides what it reads), only `<<` merges are resolved.
    static let resolver = Resolver.basic.appending(Resolver.Rule.merge)

    /// The decoded document, or an error with line and column: a syntax error where the parser stopped,
    /// a structural one at the construct OpenAPIKit's coding path names. Integer bounds no 64-bit
    /// integer holds are left out first, each with a warning (``repaired(_:path:warn:)``).
    /// `root` is the tree ``DocumentLimits`` bounded (or ``JSONLocator`` read, within the same bounds),
    /// so decoding it is bounded too.
    static func load(
        root: Node,
        locator: NodeLocator,
        warn: (String, [String]) -> Void
    ) throws(DescriptionErrors) -> OpenAPIKit.OpenAPI.Document {
        if let swagger = locator.node(at: ["swagger"])?.string {
            throw DescriptionErrors([
                DescriptionError(
                    "this is a Swagger \(swagger) document; switchyard-gen reads OpenAPI 3.0, 3.1 and 3.2: convert it first"
                        + " (for example with swagger2openapi, or the Swagger Editor's 'Convert to OpenAPI 3')",
                    at: locator.location(["swagger"])
                )
            ])
        }
        let version = locator.node(at: ["openapi"])?.string ?? ""
        guard version.hasPrefix("3.0.") || version.hasPrefix("3.1.") || version.hasPrefix("3.2.") else {
            throw DescriptionErrors([
                DescriptionError(
                    "'openapi' must be a 3.0.x, 3.1.x or 3.2.x version, not '\(version)'",
                    at: locator.location(locator.node(at: ["openapi"]) == nil ? [] : ["openapi"])
                )
            ])
        }
        let repaired = repaired(root, path: [], laterForms: !version.hasPrefix("3.0."), warn: warn)
        do {
            if version.hasPrefix("3.0.") {
                let document = try YAMLDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: repaired)
                return document.convert(to: .v3_1_1)
            }
            return try YAMLDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: repaired)
        } catch {
            throw DescriptionErrors([decodingError(error, locator: locator)])
        }
    }

    /// A decoding failure at the place its coding path names.
    static func decodingError(_ error: any Error, locator: NodeLocator) -> DescriptionError {
        if let yamlError = error as? YamlError {
            return DescriptionParser.yamlError(yamlError, file: locator.file, yaml: "")
        }
        let described = OpenAPIKit.OpenAPI.Error(from: error)
        let path = described.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        return DescriptionError(
            "the document is not a valid OpenAPI document: \(described.localizedDescription)",
            at: locator.location(path)
        )
    }
}

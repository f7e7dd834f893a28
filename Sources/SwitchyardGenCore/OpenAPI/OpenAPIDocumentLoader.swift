import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Yams

/// Decodes an OpenAPI 3.0.x or 3.1.x document (YAML or JSON) with OpenAPIKit; a 3.0 document is
/// converted to 3.1 by OpenAPIKitCompat, so the rest of the importer reads one model.
enum OpenAPIDocumentLoader {
    /// The decoded document, or an error with line and column: a syntax error where the parser stopped,
    /// a structural one at the construct OpenAPIKit's coding path names.
    /// `text` has passed ``DocumentLimits`` (its events are the tree `locator` holds), so decoding it
    /// is bounded too; Yams parses it again with the resolver its decoder uses.
    static func load(text: String, locator: NodeLocator) throws(DescriptionErrors) -> OpenAPIKit.OpenAPI.Document {
        let version = locator.node(at: ["openapi"])?.string ?? ""
        do {
            if version.hasPrefix("3.0.") {
                let document = try YAMLDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: text)
                return document.convert(to: .v3_1_1)
            }
            if version.hasPrefix("3.1.") {
                return try YAMLDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: text)
            }
        } catch {
            throw DescriptionErrors([decodingError(error, locator: locator)])
        }
        throw DescriptionErrors([
            DescriptionError(
                "'openapi' must be a 3.0.x or 3.1.x version, not '\(version)'",
                at: locator.location(locator.node(at: ["openapi"]) == nil ? [] : ["openapi"])
            )
        ])
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

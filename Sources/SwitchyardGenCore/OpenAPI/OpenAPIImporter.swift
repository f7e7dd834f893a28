import Foundation
import OpenAPIKit
import Yams

/// Reads an OpenAPI 3.0, 3.1 or 3.2 document (YAML or JSON) into an ``APIDescription``, which the same
/// emitters turn into Swift and Markdown as a description file: one service per document, one endpoint
/// per operation, one model per schema.
///
/// ```swift
/// let description = try OpenAPIImporter.parse(text: text, file: "Petstore.openapi.yaml")
/// ```
///
/// Constructs the generator does not turn into Swift become ``DescriptionWarning``s with their line and
/// column, and the rest is generated; a document that cannot be read is a ``DescriptionErrors``.
/// `x-switchyard-*` extensions carry what OpenAPI has no words for, and a configuration file beside the
/// document (``OpenAPIConfiguration``) can override the servers' environments.
public final class OpenAPIImporter {
    let document: OpenAPIKit.OpenAPI.Document
    let locator: NodeLocator
    let reader: YAMLReader
    var models: [APIDescription.Model] = []
    var warnings: [DescriptionWarning] = []
    /// Swift names of component schemas, by component name.
    var componentNames: [String: String] = [:]
    var takenNames: Set<String> = []
    /// The options every operation starts from: the document's extensions.
    var documentOptions = APIDescription.Options()

    init(document: OpenAPIKit.OpenAPI.Document, locator: NodeLocator) {
        self.document = document
        self.locator = locator
        self.reader = YAMLReader(file: locator.file)
    }

    /// Whether a file name is an OpenAPI document's: `openapi.yaml`, `openapi.json`, `*.openapi.yaml`,
    /// `*.openapi.yml` or `*.openapi.json`. Any other file is one when its content says so
    /// (``isDocument(text:)``).
    public static func isDocument(_ fileName: String) -> Bool {
        let name = fileName.lowercased()
        return ["openapi.yaml", "openapi.yml", "openapi.json"].contains { name == $0 || name.hasSuffix("." + $0) }
    }

    /// Whether a text is an OpenAPI (or Swagger 2.0) document, whatever its file is called: YAML with a
    /// top-level `openapi:` or `swagger:` key, or JSON whose outermost object has an `openapi` or `swagger`
    /// member. A Swagger 2.0 document is then refused with what to do about it.
    public static func isDocument(text: String) -> Bool {
        OpenAPIRecognition.isDocument(text: text)
    }

    /// Parses a document.
    ///
    /// - Parameters:
    ///   - text: the document's text, YAML or JSON.
    ///   - file: the path shown in messages; its name before the first `.` names the namespace unless
    ///     the configuration or `x-switchyard-name` does.
    ///   - configuration: the text of the configuration file beside the document, if there is one.
    ///   - configurationFile: that file's path, for its messages.
    /// - Throws: ``DescriptionErrors`` when the document cannot be read or its extensions are wrong.
    public static func parse(
        text: String,
        file: String,
        configuration: String? = nil,
        configurationFile: String = "openapi.switchyard-config.yaml"
    ) throws(DescriptionErrors) -> APIDescription {
        let root: Node
        let locator: NodeLocator
        if OpenAPIRecognition.isJSON(text) {
            let read = try JSONLocator.read(text, file: file)
            root = read.root
            locator = NodeLocator(root: root, file: file, json: read.locator)
        } else {
            guard let composed = try DocumentLimits.compose(text, file: file, resolver: OpenAPIDocumentLoader.resolver) else {
                throw DescriptionErrors([DescriptionError("the document is empty", at: SourceLocation(file: file, line: 1, column: 1))])
            }
            root = composed
            locator = NodeLocator(root: root, file: file)
        }
        var loadWarnings: [DescriptionWarning] = []
        let document = try OpenAPIDocumentLoader.load(root: root, locator: locator) { message, path in
            loadWarnings.append(DescriptionWarning(message, at: locator.location(path)))
        }
        let importer = OpenAPIImporter(document: document, locator: locator)
        importer.warnings = loadWarnings
        let config = try configuration.map { text throws(DescriptionErrors) in
            try OpenAPIConfiguration.parse(text, file: configurationFile)
        }
        return try importer.describe(file: file, configuration: config)
    }

    func warn(_ message: String, at path: [String]) {
        warnings.append(DescriptionWarning(message, at: locator.location(path)))
    }

    private func describe(file: String, configuration: OpenAPIConfiguration?) throws(DescriptionErrors) -> APIDescription {
        let extensions = SwitchyardExtensions(importer: self, path: [])
        let fileBase = (file as NSString).lastPathComponent.split(separator: ".").first.map(String.init) ?? "Generated"
        let baseName = fileBase.lowercased() == "openapi" ? document.info.title : fileBase
        var name = SwiftNames.upperCamel(baseName)
        if let chosen = configuration?.name ?? extensions.typeName("name") { name = chosen }
        let access = configuration?.access ?? extensions.string("access").flatMap(APIDescription.Access.init(rawValue:)) ?? .internal
        let serviceID = configuration?.service ?? extensions.string("service") ?? SwiftNames.lowerCamel(name)
        takenNames.insert(name + "API")
        documentOptions = extensions.options(over: APIDescription.Options())
        let operationNames = operationNames()
        convertComponents()
        guard refuseSelfContainingModels() else { throw DescriptionErrors(reader.errors) }
        var service = APIDescription.Service(
            id: serviceID,
            swiftName: SwiftNames.lowerCamel(serviceID),
            summary: document.info.description.map { $0.split(separator: "\n").first.map(String.init) ?? $0 } ?? document.info.title,
            environments: configuration?.environments ?? environments(),
            timeout: extensions.number("timeout"),
            envelope: extensions.envelope(),
            encrypted: extensions.bool("encrypted") ?? false,
            endpoints: [],
            location: locator.location(["info"])
        )
        service.writesOwnQueries = true
        service.endpoints = endpoints(names: operationNames)
        declareWebhooks()
        var description = APIDescription(file: file, name: name, access: access, services: [service], models: models)
        description.namespaced = configuration?.namespaced ?? extensions.bool("namespaced") ?? true
        warnings.sort { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
        description.warnings = warnings
        var errors = reader.errors
        errors += DescriptionValidator.validate(description)
        guard errors.isEmpty else { throw DescriptionErrors(errors) }
        return description
    }

    /// A Swift type name not yet taken, from `proposal`.
    func claimName(_ proposal: String) -> String {
        var base = SwiftNames.upperCamel(proposal)
        if SwiftNames.reservedTypeNames.contains(base) || SwiftNames.generatedCodeNames.contains(base) { base += "Model" }
        return SwiftNames.unique(base, in: &takenNames)
    }
}

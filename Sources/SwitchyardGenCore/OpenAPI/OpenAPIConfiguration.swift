import Yams

/// The configuration file beside an OpenAPI document — `openapi.switchyard-config.yaml` beside
/// `openapi.yaml`, `Petstore.openapi.switchyard-config.yaml` beside `Petstore.openapi.yaml` — which
/// overrides what the generator would take from the document:
///
/// ```yaml
/// name: Petstore            # the namespace (PetstoreAPI)
/// access: public            # internal (default) or public
/// service: pets             # the service id
/// namespaced: false         # endpoints and models at module scope, not in PetstoreAPI (default: true)
/// environments:             # replaces the environments made from `servers`
///   develop: http://127.0.0.1:8080/v1
///   release: https://api.example.com/v1
/// ```
public struct OpenAPIConfiguration: Sendable {
    static let keys = ["name", "access", "service", "namespaced", "environments"]

    /// The namespace name.
    public var name: String?
    /// The access level.
    public var access: APIDescription.Access?
    /// The service id.
    public var service: String?
    /// Whether the endpoints and models are members of the `<Name>API` namespace (`true` when not said).
    public var namespaced: Bool?
    /// Base URLs by environment, replacing the servers'.
    public var environments: [(name: String, url: String)]?

    /// The configuration file's name for a document's: its `.yaml`, `.yml` or `.json` extension replaced by
    /// `.switchyard-config.yaml`.
    public static func fileName(forDocument documentName: String) -> String {
        var base = documentName
        for suffix in [".yaml", ".yml", ".json"] where base.lowercased().hasSuffix(suffix) {
            base = String(base.dropLast(suffix.count))
            break
        }
        return base + ".switchyard-config.yaml"
    }

    /// Parses a configuration file.
    ///
    /// - Throws: ``DescriptionErrors`` for unknown keys and values of the wrong kind.
    public static func parse(_ text: String, file: String) throws(DescriptionErrors) -> OpenAPIConfiguration {
        let reader = YAMLReader(file: file)
        var configuration = OpenAPIConfiguration()
        let root = try DocumentLimits.compose(text, file: file)
        if let root, let fields = reader.fields(root, "the configuration", allowed: keys) {
            if let name = reader.typeName(fields["name"], "'name'") { configuration.name = name }
            if let access = fields["access"], let text = reader.string(access, "'access'") {
                configuration.access = APIDescription.Access(rawValue: text)
                if configuration.access == nil { reader.error("'access' must be 'internal' or 'public', not '\(text)'", at: access) }
            }
            configuration.service = reader.string(fields["service"], "'service'")
            configuration.namespaced = reader.bool(fields["namespaced"], "'namespaced'")
            if let environments = fields["environments"] {
                configuration.environments = (reader.entries(environments, "'environments'") ?? []).compactMap { entry in
                    reader.string(entry.value, "a base URL").map { (entry.key, $0) }
                }
            }
        }
        guard reader.errors.isEmpty else { throw DescriptionErrors(reader.errors) }
        return configuration
    }
}

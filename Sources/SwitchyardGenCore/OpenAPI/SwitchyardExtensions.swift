import Yams

/// The `x-switchyard-*` extensions of the document, a path or an operation: what OpenAPI has no
/// words for. An operation's options override its path's, which override the document's.
///
/// | Extension | Where | Meaning |
/// | --- | --- | --- |
/// | `x-switchyard-name`, `x-switchyard-access`, `x-switchyard-service` | document | namespace, access level, service id |
/// | `x-switchyard-namespaced` | document | `false`: endpoints and models at module scope, not in the namespace |
/// | `x-switchyard-envelope` | document | `{code, message, data, success}`, as in a description file |
/// | `x-switchyard-encrypted` | document, path, operation | encryption for the service, or per endpoint (opt-in) |
/// | `x-switchyard-timeout` | document, path, operation | the service's default, or per endpoint, in seconds |
/// | `x-switchyard-cache`, `x-switchyard-retries`, `x-switchyard-tags`, `x-switchyard-same-request` | document, path, operation | per-call options |
struct SwitchyardExtensions {
    static let documentKeys = ["name", "access", "service", "namespaced", "envelope"]
    static let optionKeys = ["encrypted", "timeout", "cache", "retries", "tags", "same-request"]

    let importer: OpenAPIImporter
    let path: [String]
    private let fields: [String: Node]
    private let keyNodes: [String: Node]

    init(importer: OpenAPIImporter, path: [String]) {
        self.importer = importer
        self.path = path
        var fields: [String: Node] = [:]
        var keyNodes: [String: Node] = [:]
        let allowed = path.isEmpty ? Self.documentKeys + Self.optionKeys : Self.optionKeys
        for (key, value) in importer.locator.node(at: path)?.mapping ?? [:] {
            guard let name = key.string, name.hasPrefix("x-switchyard-") else { continue }
            let short = String(name.dropFirst("x-switchyard-".count))
            if allowed.contains(short) {
                fields[short] = value
                keyNodes[short] = key
            } else {
                importer.warnings.append(
                    DescriptionWarning(
                        "unknown extension '\(name)' here; expected one of: \(allowed.map { "x-switchyard-" + $0 }.joined(separator: ", "))",
                        at: importer.locator.location(path + [name])
                    )
                )
            }
        }
        self.fields = fields
        self.keyNodes = keyNodes
    }

    /// What `read` gives, its messages about nodes without a mark (a JSON document's) placed at the
    /// extension `key`.
    private func reading<T>(_ key: String, _ read: () -> T) -> T {
        let reader = importer.reader
        let saved = reader.unmarked
        reader.unmarked = importer.locator.location(path + ["x-switchyard-" + key])
        defer { reader.unmarked = saved }
        return read()
    }

    func string(_ key: String) -> String? { reading(key) { importer.reader.string(fields[key], "'x-switchyard-\(key)'") } }

    /// A type name (`x-switchyard-name`); an error at its place, and `nil`, when it is not an upper-camel
    /// Swift type name.
    func typeName(_ key: String) -> String? { reading(key) { importer.reader.typeName(fields[key], "'x-switchyard-\(key)'") } }
    func number(_ key: String) -> Double? { reading(key) { importer.reader.number(fields[key], "'x-switchyard-\(key)'") } }
    func bool(_ key: String) -> Bool? { reading(key) { importer.reader.bool(fields[key], "'x-switchyard-\(key)'") } }

    /// The envelope, read as a description file's `envelope`.
    func envelope() -> APIDescription.Envelope? {
        reading("envelope") { readEnvelope() }
    }

    private func readEnvelope() -> APIDescription.Envelope? {
        guard let node = fields["envelope"] else { return nil }
        let reader = importer.reader
        guard let envelope = reader.fields(node, "'x-switchyard-envelope'", allowed: DescriptionParser.envelopeKeys) else { return nil }
        var parsed = APIDescription.Envelope(
            code: reader.string(envelope["code"], "'code'") ?? "code",
            message: reader.string(envelope["message"], "'message'") ?? "msg",
            data: reader.string(envelope["data"], "'data'") ?? "data",
            successCodes: [],
            successTexts: []
        )
        for code in envelope["success"].map({ $0.sequence.map(Array.init) ?? [$0] }) ?? [] {
            if let number = code.int {
                parsed.successCodes.append(number)
            } else if let text = code.string {
                parsed.successTexts.append(text)
            }
        }
        if parsed.successCodes.isEmpty && parsed.successTexts.isEmpty { parsed.successCodes = [0] }
        if !parsed.successCodes.isEmpty && !parsed.successTexts.isEmpty {
            reader.error("the envelope's success codes must be all numbers or all text", at: node)
        }
        return parsed
    }

    /// The per-call options here over `base` (a path's, or the document's): the document's encryption and
    /// timeout belong to the service, not to each call.
    func options(over base: APIDescription.Options) -> APIDescription.Options {
        let saved = importer.reader.unmarked
        defer { importer.reader.unmarked = saved }
        return readOptions(over: base)
    }

    private func readOptions(over base: APIDescription.Options) -> APIDescription.Options {
        let reader = importer.reader
        var options = base
        // The document's encryption and timeout are the service's, read (and reported) there, not again.
        if !path.isEmpty, let value = bool("encrypted") { options.encrypted = value }
        if !path.isEmpty, let value = number("timeout") { options.timeout = value }
        if let value = reading("retries", { reader.int(fields["retries"], "'x-switchyard-retries'") }) { options.retries = value }
        if fields["tags"] != nil { options.tags = reading("tags") { reader.strings(fields["tags"], "'x-switchyard-tags'") } }
        if let value = string("same-request") { options.sameRequest = value }
        if let cache = fields["cache"] {
            reader.unmarked = importer.locator.location(path + ["x-switchyard-cache"])
            if cache.scalar != nil {
                options.cachePolicy = reader.string(cache, "'x-switchyard-cache'")
                options.cacheMaxAge = nil
            } else if let cacheFields = reader.fields(cache, "'x-switchyard-cache'", allowed: DescriptionParser.cacheKeys) {
                options.cachePolicy = reader.string(cacheFields["policy"], "'policy'")
                options.cacheMaxAge = reader.number(cacheFields["maxAge"], "'maxAge'")
            }
        }
        if let node = importer.locator.node(at: path), !fields.isEmpty {
            // A JSON document's nodes have no marks: the checks' messages land where the node is.
            reader.unmarked = importer.locator.location(path)
            DescriptionValidator.check(options, at: node, reader: reader)
        }
        return options
    }
}

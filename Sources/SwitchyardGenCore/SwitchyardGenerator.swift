import Foundation

/// The generator in one call: a description's or an OpenAPI document's text in, Swift and Markdown out.
///
/// ```swift
/// let output = try SwitchyardGenerator.generate(yaml: text, file: "Catalog.switchyard.yaml")
/// try output.swift.write(toFile: "CatalogAPI.swift", atomically: true, encoding: .utf8)
/// ```
public enum SwitchyardGenerator {
    /// What the generator writes.
    public struct Output: Sendable {
        /// The Swift source.
        public var swift: String
        /// The Markdown API reference.
        public var markdown: String
        /// The parsed description.
        public var description: APIDescription
        /// Constructs left out, each with its file, line and column.
        public var warnings: [DescriptionWarning] { description.warnings }
    }

    /// The text of the file at `path`, read within the generator's limits: at most 16 MiB, and UTF-8
    /// (with or without a byte order mark). Only that much is read of a larger file.
    ///
    /// - Throws: ``DescriptionErrors`` when the file cannot be read, is too large, or is not UTF-8 (at the
    ///   line and column of the first byte that is not).
    public static func readDocument(atPath path: String) throws(DescriptionErrors) -> String {
        let bytes: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            bytes = try handle.read(upToCount: DocumentLimits.maximumBytes + 1) ?? Data()
        } catch {
            throw DescriptionErrors([
                DescriptionError("cannot read the file: \(error.localizedDescription)", at: SourceLocation(file: path, line: 1, column: 1))
            ])
        }
        return try DocumentLimits.text(of: bytes, file: path)
    }

    /// Parses, validates and emits. A file that ``OpenAPIImporter/isDocument(_:)`` names an OpenAPI
    /// document, or whose text ``OpenAPIImporter/isDocument(text:)`` recognises as one (`petstore.yaml`),
    /// is read as one; any other as a description file.
    ///
    /// - Parameters:
    ///   - yaml: the file's text (YAML, or JSON for an OpenAPI document).
    ///   - file: the file's path, shown in messages.
    ///   - configuration: for an OpenAPI document, the text of its configuration file, if it has one.
    ///   - configurationFile: that file's path, for its messages.
    ///   - strict: whether warnings are errors.
    /// - Throws: ``DescriptionErrors`` with every problem, each with its file, line and column (with
    ///   `strict`, the warnings too).
    public static func generate(
        yaml: String,
        file: String,
        configuration: String? = nil,
        configurationFile: String? = nil,
        strict: Bool = false
    ) throws(DescriptionErrors) -> Output {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let description =
            if OpenAPIImporter.isDocument(name) || OpenAPIImporter.isDocument(text: yaml) {
                try OpenAPIImporter.parse(
                    text: yaml,
                    file: file,
                    configuration: configuration,
                    configurationFile: configurationFile ?? OpenAPIConfiguration.fileName(forDocument: file)
                )
            } else {
                try DescriptionParser.parse(yaml: yaml, file: file)
            }
        if strict, !description.warnings.isEmpty { throw DescriptionErrors(description.warnings.map(\.asError)) }
        return Output(swift: SwiftEmitter.emit(description), markdown: MarkdownEmitter.emit(description), description: description)
    }
}

/// The generator in one call: a description's text in, Swift and Markdown out.
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
    }

    /// Parses, validates and emits.
    ///
    /// - Throws: ``DescriptionErrors`` with every problem, each with its file, line and column.
    public static func generate(yaml: String, file: String) throws(DescriptionErrors) -> Output {
        let description = try DescriptionParser.parse(yaml: yaml, file: file)
        return Output(swift: SwiftEmitter.emit(description), markdown: MarkdownEmitter.emit(description), description: description)
    }
}

import Foundation
import PackagePlugin

/// `swift package generate-endpoints [--target NAME ...] [--output DIR]`: writes the Swift and the
/// Markdown API reference for every `*.switchyard.yaml` description and OpenAPI document (`openapi.yaml`,
/// `openapi.json`, `*.openapi.yaml`, `*.openapi.json`, or any `.yaml`, `.yml` or `.json` file with a
/// top-level `openapi` key) in the package's targets (or the named ones), for
/// inspection, review and publishing the reference.
///
/// Files go to `DIR/<Target>/<Name>API.swift` and `<Name>API.md` (`DIR` is `GeneratedAPI` in the
/// package by default). Keep them out of a target that also uses the build plugin, or the types are
/// declared twice.
@main
struct GenerateEndpoints: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let outputRoot =
            extractor.extractOption(named: "output").first.map { URL(fileURLWithPath: $0, relativeTo: context.package.directoryURL) }
            ?? context.package.directoryURL.appendingPathComponent("GeneratedAPI")
        let tool = try context.tool(named: "switchyard-gen")
        let targets = try names.isEmpty ? context.package.targets : context.package.targets(named: names)
        var generated = 0
        for case let target as SourceModuleTarget in targets {
            for file in target.sourceFiles where isDescription(file.url.lastPathComponent) || Self.isOpenAPIDocument(file.url) {
                let name = String(file.url.lastPathComponent.prefix { $0 != "." })
                let directory = outputRoot.appendingPathComponent(target.name)
                let swift = directory.appendingPathComponent("\(name)API.swift")
                let markdown = directory.appendingPathComponent("\(name)API.md")
                let process = Process()
                process.executableURL = tool.url
                process.arguments = ["generate", file.url.path, "--swift", swift.path, "--markdown", markdown.path]
                try process.run()
                process.waitUntilExit()
                guard process.terminationStatus == 0 else {
                    Diagnostics.error("switchyard-gen failed for \(file.url.path)")
                    throw GenerationFailed()
                }
                print("\(file.url.lastPathComponent) → \(swift.path), \(markdown.path)")
                generated += 1
            }
        }
        if generated == 0 {
            Diagnostics.warning(
                "no *.switchyard.yaml descriptions or OpenAPI documents found in \(names.isEmpty ? "the package" : names.joined(separator: ", "))"
            )
        }
    }

    private func isDescription(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return name.hasSuffix(".switchyard.yaml") || name.hasSuffix(".switchyard.yml")
            || ["openapi.yaml", "openapi.yml", "openapi.json"].contains { lowered == $0 || lowered.hasSuffix("." + $0) }
    }

    /// Whether a file is an OpenAPI document by its content, whatever its name (`petstore.yaml`): YAML with a
    /// top-level `openapi:` or `swagger:` key, or JSON whose outermost object has such a member
    /// (`OpenAPIRecognition`, linked into this plugin's folder from the generator's).
    static func isOpenAPIDocument(_ url: URL) -> Bool {
        let lowered = url.lastPathComponent.lowercased()
        guard [".yaml", ".yml", ".json"].contains(where: { lowered.hasSuffix($0) }),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return false }
        return OpenAPIRecognition.isDocument(text: text)
    }

    struct GenerationFailed: Error, CustomStringConvertible {
        var description: String { "a description has errors (see above)" }
    }
}

import Foundation
import PackagePlugin

/// Generates Swift from every `*.switchyard.yaml` description and every OpenAPI 3.0, 3.1 or 3.2 document
/// (`openapi.yaml`, `openapi.json`, `*.openapi.yaml`, `*.openapi.json`, or any `.yaml`, `.yml` or `.json`
/// file whose content has a top-level `openapi` key) in a target, at build time, with
/// `switchyard-gen`. Add it to a target:
///
/// ```swift
/// .target(name: "MyApp", dependencies: ["Switchyard"], plugins: [.plugin(name: "SwitchyardGenBuildPlugin", package: "Switchyard")])
/// ```
///
/// A description `Catalog.switchyard.yaml` (or a document `Catalog.openapi.yaml`) becomes
/// `CatalogAPI.swift` in the build directory; the build reruns the generator only when the file (or a
/// document's `<document>.switchyard-config.yaml` beside it) changes. Errors fail the build with
/// `file:line:column: error: …`; warnings show as `file:line:column: warning: …`.
@main
struct SwitchyardGenBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "switchyard-gen")
        return target.sourceFiles.filter {
            DescriptionFile.isDescription($0.url.lastPathComponent) || DescriptionFile.isOpenAPIDocument($0.url)
        }.map { file in
            let name = DescriptionFile.baseName(file.url.lastPathComponent)
            let output = context.pluginWorkDirectoryURL.appendingPathComponent("\(name)API.swift")
            var inputs = [file.url]
            if let configuration = DescriptionFile.configuration(of: file.url) { inputs.append(configuration) }
            return .buildCommand(
                displayName: "Generating \(name)API.swift from \(file.url.lastPathComponent)",
                executable: tool.url,
                arguments: ["generate", file.url.path, "--swift", output.path],
                inputFiles: inputs,
                outputFiles: [output]
            )
        }
    }
}

/// Which files are descriptions, and the name they give their output.
enum DescriptionFile {
    static func isDescription(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return name.hasSuffix(".switchyard.yaml") || name.hasSuffix(".switchyard.yml")
            || ["openapi.yaml", "openapi.yml", "openapi.json"].contains { lowered == $0 || lowered.hasSuffix("." + $0) }
    }

    /// An OpenAPI document's configuration file beside it, when there is one.
    static func configuration(of document: URL) -> URL? {
        var name = document.lastPathComponent
        guard !name.hasSuffix(".switchyard.yaml"), !name.hasSuffix(".switchyard.yml") else { return nil }
        for suffix in [".yaml", ".yml", ".json"] where name.lowercased().hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
            break
        }
        let url = document.deletingLastPathComponent().appendingPathComponent(name + ".switchyard-config.yaml")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
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

    static func baseName(_ name: String) -> String {
        String(name.prefix { $0 != "." })
    }
}

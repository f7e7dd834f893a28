import PackagePlugin

/// Generates Swift from every `*.switchyard.yaml` description in a target, at build time, with
/// `switchyard-gen`. Add it to a target:
///
/// ```swift
/// .target(name: "MyApp", dependencies: ["Switchyard"], plugins: [.plugin(name: "SwitchyardGenBuildPlugin", package: "Switchyard")])
/// ```
///
/// A description `Catalog.switchyard.yaml` becomes `CatalogAPI.swift` in the build directory; the
/// build reruns the generator only when the description changes. Errors in a description fail the
/// build with `file:line:column: error: …`.
@main
struct SwitchyardGenBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "switchyard-gen")
        return target.sourceFiles.filter { DescriptionFile.isDescription($0.url.lastPathComponent) }.map { file in
            let name = DescriptionFile.baseName(file.url.lastPathComponent)
            let output = context.pluginWorkDirectoryURL.appendingPathComponent("\(name)API.swift")
            return .buildCommand(
                displayName: "Generating \(name)API.swift from \(file.url.lastPathComponent)",
                executable: tool.url,
                arguments: ["generate", file.url.path, "--swift", output.path],
                inputFiles: [file.url],
                outputFiles: [output]
            )
        }
    }
}

/// Which files are descriptions, and the name they give their output.
enum DescriptionFile {
    static func isDescription(_ name: String) -> Bool {
        name.hasSuffix(".switchyard.yaml") || name.hasSuffix(".switchyard.yml")
    }

    static func baseName(_ name: String) -> String {
        String(name.prefix { $0 != "." })
    }
}

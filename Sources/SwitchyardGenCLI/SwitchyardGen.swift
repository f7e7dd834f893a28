import ArgumentParser
import Foundation
import SwitchyardGenCore

/// `switchyard-gen`: validates API description files and OpenAPI 3.0, 3.1 or 3.2 documents and turns them into
/// Swift endpoints and a Markdown API reference.
@main
struct SwitchyardGen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchyard-gen",
        abstract: "Turns Switchyard API descriptions and OpenAPI 3.0, 3.1 or 3.2 documents into Swift endpoints and a Markdown reference.",
        subcommands: [Generate.self, Validate.self]
    )

    /// `switchyard-gen generate FILE --swift OUT [--markdown OUT]`.
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Writes the Swift (and optionally the Markdown reference) for one description."
        )

        @Argument(
            help:
                "The description file (.switchyard.yaml) or OpenAPI 3.0, 3.1 or 3.2 document (YAML or JSON, recognised by its 'openapi' key)."
        )
        var file: String
        @Option(help: "Where to write the Swift source.") var swift: String?
        @Option(help: "Where to write the Markdown API reference.") var markdown: String?
        @Option(help: "An OpenAPI document's configuration file (default: <document>.switchyard-config.yaml beside it, if there).")
        var config: String?
        @Flag(help: "Treat warnings (constructs left out) as errors.") var strict = false

        func run() throws {
            guard swift != nil || markdown != nil else { throw ValidationError("give --swift, --markdown or both") }
            let output = try SwitchyardGen.load(file, config: config, strict: strict)
            if let swift { try SwitchyardGen.write(output.swift, to: swift) }
            if let markdown { try SwitchyardGen.write(output.markdown, to: markdown) }
        }
    }

    /// `switchyard-gen validate FILE...`.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Checks descriptions and reports every problem with its line and column.")

        @Argument(help: "The description files and OpenAPI documents.") var files: [String]
        @Flag(help: "Treat warnings (constructs left out) as errors.") var strict = false

        func run() throws {
            var failed = false
            for file in files {
                do {
                    let output = try SwitchyardGen.load(file, config: nil, strict: strict)
                    let endpoints = output.description.services.reduce(0) { $0 + $1.endpoints.count }
                    print(
                        "\(file): \(output.description.services.count) services, \(endpoints) endpoints, \(output.description.models.count) models"
                    )
                } catch is ExitCode {
                    failed = true
                }
            }
            if failed { throw ExitCode.failure }
        }
    }

    /// Reads and generates, printing errors and warnings as `file:line:column: error: …` on stderr.
    static func load(_ file: String, config: String?, strict: Bool) throws -> SwitchyardGenerator.Output {
        let text: String
        do {
            text = try SwitchyardGenerator.readDocument(atPath: file)
        } catch {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode.failure
        }
        let configFile =
            config
            ?? URL(fileURLWithPath: file).deletingLastPathComponent()
            .appendingPathComponent(OpenAPIConfiguration.fileName(forDocument: URL(fileURLWithPath: file).lastPathComponent)).path
        var configuration: String?
        if OpenAPIImporter.isDocument(URL(fileURLWithPath: file).lastPathComponent) || OpenAPIImporter.isDocument(text: text),
            config != nil || FileManager.default.fileExists(atPath: configFile)
        {
            do {
                configuration = try SwitchyardGenerator.readDocument(atPath: configFile)
            } catch {
                FileHandle.standardError.write(Data((error.description + "\n").utf8))
                throw ExitCode.failure
            }
        }
        do {
            let output = try SwitchyardGenerator.generate(
                yaml: text,
                file: file,
                configuration: configuration,
                configurationFile: configFile,
                strict: strict
            )
            for warning in output.warnings { FileHandle.standardError.write(Data((warning.description + "\n").utf8)) }
            return output
        } catch {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode.failure
        }
    }

    /// Writes a file only when its content changes, so builds that depend on it stay incremental.
    static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        if let existing = try? String(contentsOf: url, encoding: .utf8), existing == text { return }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}

import Foundation
import OpenAPIKit

/// `servers` → environments. A server's `x-switchyard-environment` names its environment; otherwise
/// the first of these words in its description or URL does: `develop`/`dev`/`local`, `test`/`staging`/
/// `qa`/`sandbox`, `prerelease`/`preprod`/`beta`, `hotfix`, `release`/`production`/`prod`/`live`; a
/// server that names none is `release` when no other server is. Variables take their defaults.
extension OpenAPIImporter {
    static let environmentWords: [(environment: String, words: [String])] = [
        ("prerelease", ["prerelease", "pre-release", "preprod", "pre-production", "beta"]),
        ("hotfix", ["hotfix"]),
        ("develop", ["develop", "development", "dev", "local", "localhost", "127.0.0.1"]),
        ("test", ["test", "testing", "staging", "stage", "qa", "sandbox"]),
        ("release", ["release", "production", "prod", "live"]),
    ]

    func environments() -> [(name: String, url: String)] {
        var result: [(name: String, url: String)] = []
        var unnamed: [(url: String, path: [String])] = []
        for (index, server) in document.servers.enumerated() {
            let path = ["servers", String(index)]
            var url = server.urlTemplate.rawValue
            for (name, variable) in server.variables { url = url.replacingOccurrences(of: "{\(name)}", with: variable.default) }
            guard URL(string: url)?.host != nil else {
                warn("server '\(url)' is not an absolute http(s) URL, so it cannot be an environment's base URL; it is left out", at: path)
                continue
            }
            let named = server.vendorExtensions["x-switchyard-environment"]?.value as? String
            if let environment = named ?? Self.environment(describedBy: [server.description, server.name, url]) {
                if result.contains(where: { $0.name == environment }) {
                    warn("a second server for the \(environment) environment is left out", at: path)
                } else {
                    result.append((environment, url.hasSuffix("/") ? String(url.dropLast()) : url))
                }
            } else {
                unnamed.append((url, path))
            }
        }
        for (offset, server) in unnamed.enumerated() {
            if offset == 0, !result.contains(where: { $0.name == "release" }) {
                result.append(("release", server.url.hasSuffix("/") ? String(server.url.dropLast()) : server.url))
            } else {
                warn(
                    "server '\(server.url)' names no environment; name it with 'x-switchyard-environment' or in the configuration file",
                    at: server.path
                )
            }
        }
        if result.isEmpty {
            warn("the document has no absolute server URL; give the environments in the configuration file", at: ["servers"])
        }
        return result
    }

    private static func environment(describedBy texts: [String?]) -> String? {
        for text in texts.compactMap({ $0?.lowercased() }) {
            let words = Set(text.split { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }.map(String.init))
            for (environment, candidates) in environmentWords where candidates.contains(where: words.contains) {
                return environment
            }
        }
        return nil
    }
}

import Foundation
import SwitchyardGenCore
import Testing

/// Mutated API documents, thousands per run, generated in this process (a crash ends the run, which is
/// the point): each gives a located error or output, within a time bound, and no output holds code a
/// document injected. The seed is fixed so that a failure repeats; `SWITCHYARD_FUZZ_SEED` changes it and
/// `SWITCHYARD_FUZZ_DOCUMENTS` the count (200 by default, so that a plain `swift test` stays quick; CI runs
/// 2,000 in a step of their own, after the rest of the suite, since the workers keep both cores busy for
/// minutes and would starve the suite's timing tests).
@Suite("Generator fuzz")
struct GeneratorFuzzTests {
    /// A small, fast, seedable generator (SplitMix64).
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A document to mutate: its file name (which decides how it is read) and text.
    struct Seed {
        let file: String
        let text: String
    }

    /// Values that try to leave a string literal, a comment or a name, as YAML scalars.
    static let payloads = [
        #"'k\(fatalError("PWNED"))"'"#,
        #"'"); fatalError("PWNED"); ("'"#,
        #"'*/ fatalError("PWNED") /*'"#,
        #""a\nfatalError(\"PWNED\")\n""#,
        #""a\rfatalError(\"PWNED\")\u2028\u202E""#,
        ##"'#"fatalError("PWNED")"#'"##,
        #"'""" fatalError("PWNED") """'"#,
        #"'Pets { }; func x() { fatalError("PWNED") }; enum Z'"#,
    ]

    /// The public documents nobody on the project wrote that seed the fuzz too, when the corpus lies beside
    /// the clone (`../shared/corpora/openapi`, as in CI).
    static let corpusNames = ["apisguru-xkcd.yaml", "oai-webhook-example.yaml", "oai-non-oauth-scopes.json", "resend.yaml"]

    /// This target's directory.
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// Where the public corpus lies when it is beside the clone.
    static let corpusDirectory = testsDirectory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/corpora/openapi")

    /// Whether the public corpus is beside the clone, or CI requires it.
    static let corpusPresent =
        FileManager.default.fileExists(atPath: corpusDirectory.path)
        || ProcessInfo.processInfo.environment["SWITCHYARD_REQUIRE_REAL_SERVERS"] == "1"

    /// The fixtures of this target (in the repository, so every clone has them).
    static func repositorySeeds() throws -> [URL] {
        let tests = testsDirectory
        var urls = try FileManager.default.contentsOfDirectory(at: tests.appendingPathComponent("OpenAPI"), includingPropertiesForKeys: nil)
        urls += try FileManager.default.contentsOfDirectory(at: tests.appendingPathComponent("Streams"), includingPropertiesForKeys: nil)
        urls += try FileManager.default.contentsOfDirectory(at: tests, includingPropertiesForKeys: nil).filter {
            $0.lastPathComponent.hasSuffix(".switchyard.yaml")
        }
        return urls
    }

    /// The corpus documents found beside the clone (none on a plain clone).
    static func corpusSeeds() -> [URL] {
        corpusNames.map { corpusDirectory.appendingPathComponent($0) }.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The fixtures of this target, and the public documents of the corpus when it is beside the clone.
    static func seeds() throws -> [Seed] {
        let urls = try repositorySeeds() + corpusSeeds()
        return try urls.sorted { $0.lastPathComponent < $1.lastPathComponent }.map { url in
            let name = url.lastPathComponent
            // The corpus's names are not OpenAPI names; give them one so that they are read as documents.
            let file = OpenAPIImporter.isDocument(name) || name.hasSuffix(".switchyard.yaml") ? name : "Corpus-" + name + ".openapi.yaml"
            return Seed(file: file, text: try String(contentsOf: url, encoding: .utf8))
        }
    }

    /// One to four mutations of `text`.
    static func mutate(_ text: String, using random: inout SplitMix64) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            guard !lines.isEmpty else { break }
            let index = Int.random(in: 0..<lines.count, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0:  // a character replaced by one YAML cares about, or any byte-sized character
                var scalars = Array(lines[index].unicodeScalars)
                guard !scalars.isEmpty else { continue }
                let special = Array("\"'\\{}[]:&*-#|>?!%@` \t".unicodeScalars)
                scalars[Int.random(in: 0..<scalars.count, using: &random)] =
                    Bool.random(using: &random)
                    ? special[Int.random(in: 0..<special.count, using: &random)]
                    : Unicode.Scalar(UInt8.random(in: 1...0x7F, using: &random))
                lines[index] = String(String.UnicodeScalarView(scalars))
            case 1:  // a run of characters deleted
                let scalars = Array(lines[index].unicodeScalars)
                guard !scalars.isEmpty else { continue }
                let start = Int.random(in: 0..<scalars.count, using: &random)
                let end = min(scalars.count, start + Int.random(in: 1...64, using: &random))
                lines[index] = String(String.UnicodeScalarView(scalars[..<start] + scalars[end...]))
            case 2: lines.insert(lines[index], at: index)
            case 3: lines.remove(at: index)
            case 4:  // a value anchored, and used again elsewhere
                guard let colon = lines[index].range(of: ": "), lines[index][colon.upperBound...].first != "&" else { continue }
                lines[index].insert(contentsOf: "&fz ", at: colon.upperBound)
                let target = Int.random(in: 0..<lines.count, using: &random)
                if let other = lines[target].range(of: ": ") { lines[target] = String(lines[target][..<other.upperBound]) + "*fz" }
            case 5:  // a schema that names itself through allOf, or a reference turned to another schema
                if let reference = lines[index].range(of: "#/components/schemas/") {
                    let names = text.components(separatedBy: "#/components/schemas/").dropFirst().map {
                        $0.prefix { $0.isLetter || $0.isNumber }
                    }
                    if let name = names.randomElement(using: &random) {
                        let rest = lines[index][reference.upperBound...].drop { $0.isLetter || $0.isNumber }
                        lines[index] = String(lines[index][..<reference.upperBound]) + name + rest
                    }
                } else if lines[index].hasSuffix(":"), let name = lines[index].split(separator: " ").last?.dropLast() {
                    let indentation = String(lines[index].prefix { $0 == " " })
                    lines.insert(indentation + "  allOf: [{ $ref: '#/components/schemas/\(name)' }]", at: index + 1)
                }
            case 6, 7:  // a payload as a value or a key
                let payload = payloads[Int.random(in: 0..<payloads.count, using: &random)]
                guard let colon = lines[index].range(of: ": ") ?? lines[index].range(of: ":", options: .backwards) else { continue }
                if Bool.random(using: &random) {
                    lines[index] =
                        String(lines[index][..<colon.upperBound]) + (colon.upperBound == lines[index].endIndex ? " " : "") + payload
                } else {
                    let indentation = lines[index].prefix { $0 == " " || $0 == "-" }
                    lines[index] = String(indentation) + payload + lines[index][colon.lowerBound...]
                }
            case 8:  // a payload as the namespace or the service
                let payload = payloads[Int.random(in: 0..<payloads.count, using: &random)]
                let key = ["x-switchyard-name", "x-switchyard-service", "x-switchyard-tags", "x-switchyard-environment"].randomElement(
                    using: &random
                )
                lines.insert("\(key ?? ""): \(payload)", at: lines.count > 1 ? 1 : 0)
            default:  // aliases nested to a random depth: from ten nodes to ten thousand, or ten million
                let levels = [1, 2, 3, 4, 7].randomElement(using: &random) ?? 1
                lines.append("x-fz:")
                lines.append("  f0: &f0 [a, b, c, d, e, f, g, h, i, j]")
                for level in 1..<max(levels, 2) {
                    lines.append("  f\(level): &f\(level) [" + Array(repeating: "*f\(level - 1)", count: 10).joined(separator: ", ") + "]")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// What one document gave: `nil` when all is well, else what is wrong; and how long it took.
    struct Verdict: Sendable {
        var problem: String?
        var generated = false
        var duration: Duration = .zero
    }

    /// Generates one document and checks the result.
    static func check(_ text: String, file: String, number: Int) -> Verdict {
        var result: Result<SwitchyardGenerator.Output, DescriptionErrors>?
        let duration = ContinuousClock().measure {
            result = Result { () throws(DescriptionErrors) in try SwitchyardGenerator.generate(yaml: text, file: file) }
        }
        var verdict = Verdict(duration: duration)
        switch result {
        case .success(let output):
            verdict.generated = true
            let injected = InjectionScanner.codeLines(containing: "fatalError(", in: output.swift)
            if !injected.isEmpty { verdict.problem = "document #\(number) from \(file): code injected at lines \(injected)" }
            if output.swift.unicodeScalars.contains(where: { !SwiftSourceCheck.isAllowed($0) }) {
                verdict.problem = "document #\(number) from \(file): an invisible character in the Swift"
            }
        case .failure(let failure):
            if failure.errors.isEmpty
                || !failure.errors.allSatisfy({ $0.location.line >= 1 && $0.location.column >= 1 && !$0.message.isEmpty })
            {
                verdict.problem = "document #\(number) from \(file): an error without a place or a message: \(failure)"
            }
        case nil:
            verdict.problem = "document #\(number) from \(file): no result"
        }
        return verdict
    }

    @Test("mutated documents: no crash, a located error or output, bounded time, no injected code")
    func fuzz() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["SWITCHYARD_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5317_C4A1
        let count = environment["SWITCHYARD_FUZZ_DOCUMENTS"].flatMap { Int($0) } ?? 200
        let seeds = try Self.seeds()
        // The repository's own fixtures: OpenAPI 3.0, 3.1 and 3.2 documents in YAML and JSON, and descriptions.
        #expect(try Self.repositorySeeds().count >= 7)
        // The documents first, in order, so that the seed alone decides them. The largest document
        // (resend.yaml, 220 kB) takes seconds to read in a debug build: every thousandth document is one
        // of it, the rest are the small ones.
        var random = SplitMix64(state: seed)
        let small = seeds.filter { $0.text.utf8.count < 64 << 10 }
        let large = seeds.filter { $0.text.utf8.count >= 64 << 10 }
        let documents = (0..<count).map { number -> Seed in
            let pool = number % 1000 == 999 && !large.isEmpty ? large : small
            let seedDocument = pool[Int.random(in: 0..<pool.count, using: &random)]
            return Seed(file: seedDocument.file, text: Self.mutate(seedDocument.text, using: &random))
        }
        // Then two at a time, one per core, in this process.
        let workers = 2
        let verdicts = Verdicts(count: count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for number in stride(from: worker, to: count, by: workers) {
                verdicts.set(number, Self.check(documents[number].text, file: documents[number].file, number: number))
            }
        }
        let all = verdicts.all
        for problem in all.compactMap(\.problem).prefix(20) { Issue.record("seed \(seed): \(problem)") }
        let generated = all.filter(\.generated).count
        let slowest = all.indices.max { all[$0].duration < all[$1].duration } ?? 0
        let slowestTime = all.isEmpty ? .zero : all[slowest].duration
        print(
            "generator fuzz: seed \(seed), \(count) documents, \(generated) generated, \(count - generated) refused, 0 crashes,"
                + " slowest \(slowestTime) (#\(slowest) from \(documents.isEmpty ? "" : documents[slowest].file))"
        )
        #expect(slowestTime < .seconds(30), "slowest document: #\(slowest), \(slowestTime)")
    }

    @Test(
        "the public corpus's documents seed the fuzz when the corpus is beside the clone",
        .enabled(if: corpusPresent, "needs ../shared/corpora/openapi beside the clone (as CI lays it out)")
    )
    func corpusSeedsPresent() {
        #expect(Self.corpusSeeds().map(\.lastPathComponent) == Self.corpusNames)
    }

    /// The verdicts, written by the workers.
    final class Verdicts: @unchecked Sendable {
        private let lock = NSLock()
        private var verdicts: [Verdict]

        init(count: Int) { verdicts = Array(repeating: Verdict(), count: count) }

        func set(_ index: Int, _ verdict: Verdict) { lock.withLock { verdicts[index] = verdict } }

        var all: [Verdict] { lock.withLock { verdicts } }
    }
}

/// What the fuzz test allows in generated Swift: nothing invisible (control characters but line feeds,
/// format characters, line and paragraph separators).
enum SwiftSourceCheck {
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\n" { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return false
        default: return true
        }
    }
}

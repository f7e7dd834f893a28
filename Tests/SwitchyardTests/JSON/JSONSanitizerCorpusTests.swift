import Foundation
import Switchyard
import Testing

/// The JSONTestSuite parsing corpus (`y_` must be accepted, `n_` must be rejected, `i_` may go
/// either way), beside the clone at `../shared/corpora/JSONTestSuite/test_parsing`.
private let corpusDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // JSON
    .deletingLastPathComponent()  // SwitchyardTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package root
    .appendingPathComponent("../shared/corpora/JSONTestSuite/test_parsing")
    .standardizedFileURL

@Suite("JSON sanitizer: the JSONTestSuite conformance corpus and hostile nesting")
struct JSONSanitizerCorpusTests {
    /// The corpus files whose names start with `prefix`, with their bytes, sorted by name.
    private static func corpus(_ prefix: String) throws -> [(name: String, bytes: Data)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path)
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }
            .sorted()
        return try names.map { ($0, try Data(contentsOf: corpusDirectory.appendingPathComponent($0))) }
    }

    @Test(
        "every y_ document is accepted, and the output parses to the input's parse without nulls",
        .enabled(if: FileManager.default.fileExists(atPath: corpusDirectory.path), "needs ../shared/corpora/JSONTestSuite beside the clone")
    )
    func acceptsValidDocuments() throws {
        let files = try Self.corpus("y_")
        #expect(files.count >= 95)
        for (name, bytes) in files {
            for arrays in [false, true] {
                let output: Data
                do {
                    output = try JSONSanitizer(removeNullArrayElements: arrays).stripNulls(bytes)
                } catch {
                    Issue.record("\(name) was rejected: \(error.message)")
                    continue
                }
                let expected = FoundationOracle.strippingNulls(try FoundationOracle.parse(bytes), arrays: arrays)
                let actual = try FoundationOracle.parse(output)
                #expect(
                    FoundationOracle.equal(actual, expected),
                    "\(name) (removeNullArrayElements: \(arrays)): \(String(decoding: output, as: UTF8.self))"
                )
            }
        }
    }

    @Test(
        "every n_ document is rejected with a SwitchyardError",
        .enabled(if: FileManager.default.fileExists(atPath: corpusDirectory.path), "needs ../shared/corpora/JSONTestSuite beside the clone")
    )
    func rejectsInvalidDocuments() throws {
        let files = try Self.corpus("n_")
        #expect(files.count >= 188)
        for (name, bytes) in files {
            do {
                let output = try JSONSanitizer().stripNulls(bytes)
                Issue.record("\(name) was accepted: \(String(decoding: output, as: UTF8.self))")
            } catch {
                #expect(error.code == .invalidJSON, "\(name)")
                #expect(error.message.contains(" at byte "), "\(name): \(error.message)")
            }
        }
    }

    @Test(
        "every i_ document is either accepted as valid JSON or rejected, without a crash",
        .enabled(if: FileManager.default.fileExists(atPath: corpusDirectory.path), "needs ../shared/corpora/JSONTestSuite beside the clone")
    )
    func survivesImplementationDefinedDocuments() throws {
        let files = try Self.corpus("i_")
        #expect(files.count >= 35)
        for (name, bytes) in files {
            do {
                let output = try JSONSanitizer().stripNulls(bytes)
                // Accepted: the output is the input without its whitespace (these files hold no nulls).
                #expect(output.count <= bytes.count, "\(name)")
            } catch {
                #expect(error.code == .invalidJSON, "\(name)")
            }
        }
    }

    @Test("100,000 opening brackets or braces are refused without a crash; with no limit they still need no recursion")
    func hostileNesting() throws {
        let depth = 100_000
        for opener in ["[", #"{"a":"#] {
            let error = #expect(throws: SwitchyardError.self) {
                try JSONSanitizer().stripNulls(Data(String(repeating: opener, count: depth).utf8))
            }
            #expect(error?.code == .invalidJSON)
            #expect(error?.message.hasPrefix("invalid JSON: nesting deeper than 512 levels at byte ") == true)
        }
        let balanced = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        #expect(try JSONSanitizer(maximumDepth: .max).stripNulls(balanced) == balanced)
        let unclosed = #expect(throws: SwitchyardError.self) {
            try JSONSanitizer(maximumDepth: .max).stripNulls(Data(String(repeating: "[", count: depth).utf8))
        }
        #expect(unclosed?.message == "invalid JSON: unexpected end of input at byte \(depth), expected a value")
    }
}

/// Foundation's view of a document, the reference the sanitizer's output is compared with.
enum FoundationOracle {
    /// Parses with `JSONSerialization`, fragments allowed.
    static func parse(_ data: Data) throws -> Any {
        try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    /// A parsed value with every `NSNull` object member removed at every depth, and `NSNull` array
    /// elements too when `arrays` is set.
    static func strippingNulls(_ value: Any, arrays: Bool) -> Any {
        if let object = value as? [String: Any] {
            return object.filter { !($0.value is NSNull) }.mapValues { strippingNulls($0, arrays: arrays) }
        }
        if let array = value as? [Any] {
            return (arrays ? array.filter { !($0 is NSNull) } : array).map { strippingNulls($0, arrays: arrays) }
        }
        return value
    }

    /// Structural equality of two parsed values.
    static func equal(_ lhs: Any, _ rhs: Any) -> Bool {
        switch (lhs, rhs) {
        case let (lhs as [String: Any], rhs as [String: Any]):
            return lhs.count == rhs.count && lhs.allSatisfy { key, value in rhs[key].map { equal(value, $0) } ?? false }
        case let (lhs as [Any], rhs as [Any]):
            return lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { equal($0, $1) }
        case let (lhs as String, rhs as String):
            return lhs == rhs
        case (is NSNull, is NSNull):
            return true
        case let (lhs as NSNumber, rhs as NSNumber):
            return lhs == rhs
        default:
            return false
        }
    }
}

import Foundation

/// One module's fixture file: `<service>.json`, written pretty-printed with sorted keys.
///
/// ```json
/// {
///   "cut" : "outside Encryption",
///   "entries" : [ { "request" : { … }, "response" : { … } } ],
///   "format" : 1,
///   "service" : "vault"
/// }
/// ```
struct FixtureFile: Codable, Sendable {
    /// The only format this version reads and writes.
    static let currentFormat = 1

    var format: Int
    var service: String
    var cut: String
    var entries: [FixtureEntry]
}

/// One recorded exchange. Entries with the same request answer in file order (a sequence).
struct FixtureEntry: Codable, Sendable {
    var request: FixtureRequest
    var response: FixtureResponse
}

/// A request as recorded at the cut, secrets replaced by the redaction's placeholder and the values
/// of ignored fields by `<ignored>`.
struct FixtureRequest: Codable, Sendable, Hashable {
    var method: String
    /// The call's endpoint name: the discrete endpoint's type name or the intensive call's path template.
    var endpoint: String
    /// The percent-encoded path, without the query.
    var path: String
    /// The query's `name=value` pairs, percent-encoded as sent, sorted.
    var query: [String]
    /// `name: value` lines, names lower-cased, sorted by name (not matched; for the reader).
    var headers: [String]
    var body: FixtureBody?
}

/// A response as the stage inside the cut returned it.
struct FixtureResponse: Codable, Sendable {
    var status: Int
    /// `name: value` lines, in the order they arrived; secret values replaced.
    var headers: [String]
    var body: FixtureBody?
}

/// A body: JSON embedded as JSON, a form as its sorted pairs, text as text, any other bytes as base64.
/// Exactly one member is set.
struct FixtureBody: Codable, Sendable, Hashable {
    var json: FixtureJSON?
    var form: [String]?
    var text: String?
    var base64: String?
}

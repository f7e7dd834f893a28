import Foundation

/// Checks a response's status and content type before any stage that reads its body — so an HTML
/// error page from a proxy becomes a clear ``SwitchyardError/Code/httpStatus`` or
/// ``SwitchyardError/Code/contentType`` error, not a confusing decoding failure.
///
/// The service's rules are given when the stage is registered; an endpoint (through its
/// ``Endpoint/options``) or a call replaces them with ``CallOptions/validate(_:)``.
///
/// Register it inside the envelope, null-stripping and decoding stages and outside decryption (so it
/// sees the plaintext's content type, which the encryption stage restores).
public struct ValidationStage: SynchronousResponseStage {
    /// What a response must satisfy.
    public struct Rules: Sendable, Hashable {
        /// The acceptable statuses; by default 200...299.
        public var statuses: Set<Int>
        /// Acceptable media types: `application/json`, `text/*`, `*/*`, or `application/*+json` for
        /// any structured-syntax JSON type. Empty means any. Parameters such as `charset` are ignored.
        public var contentTypes: [String]
        /// Whether an empty body (a 204, an answer to HEAD) skips the content-type check; `true`
        /// by default.
        public var emptyBodySkipsContentType: Bool

        /// Creates rules.
        public init(statuses: Set<Int> = Set(200...299), contentTypes: [String] = [], emptyBodySkipsContentType: Bool = true) {
            self.statuses = statuses
            self.contentTypes = contentTypes.map { $0.lowercased() }
            self.emptyBodySkipsContentType = emptyBodySkipsContentType
        }

        /// JSON responses with a 2xx status.
        public static let json = Rules(contentTypes: ["application/json", "application/*+json"])
    }

    /// The context key under which ``CallOptions/validate(_:)`` stores an endpoint's or a call's rules.
    public enum CallRules: CallOptionKey {
        /// The rules for the call.
        public typealias Value = Rules
        /// The option's name in errors.
        public static let name = "validate(_:)"
        /// ``StageID/validation``.
        public static let stage = StageID.validation
        /// Calls that accept different answers never share one.
        public static func identity(_ value: Value) -> String? {
            "\(value.statuses.sorted()) \(value.contentTypes) \(value.emptyBodySkipsContentType)"
        }
    }

    /// The service's rules.
    public let rules: Rules

    /// ``StageID/validation``.
    public var id: StageID { .validation }

    /// Creates the stage.
    public init(_ rules: Rules = Rules()) {
        self.rules = rules
    }

    /// Throws if the response breaks the call's rules.
    public func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        try processSynchronously(&response, for: request, context: context)
    }

    /// What ``process(_:for:context:)`` does, without waiting: the pipeline calls it as a plain function.
    package func processSynchronously(_ response: inout Response, for request: Request, context: CallContext) throws {
        let rules = context[CallRules.self] ?? rules
        guard rules.statuses.contains(response.status.code) else {
            let error = SwitchyardError(
                code: .httpStatus,
                message: "the server answered \(response.status.code) \(response.status.reasonPhrase), which is not acceptable",
                response: response
            )
            throw error
        }
        guard !rules.contentTypes.isEmpty, !(rules.emptyBodySkipsContentType && response.body.bytes?.isEmpty == true) else {
            return
        }
        let mediaType = response.headerFields[.contentType].map(Self.mediaType) ?? ""
        guard rules.contentTypes.contains(where: { Self.matches(mediaType, pattern: $0) }) else {
            let error = SwitchyardError(
                code: .contentType,
                message: "the response's content type is \(mediaType.isEmpty ? "missing" : "'\(mediaType)'"); "
                    + "expected \(rules.contentTypes.joined(separator: " or "))",
                response: response
            )
            throw error
        }
    }

    /// `application/json` from `Application/JSON; charset=utf-8`.
    public static func mediaType(_ value: String) -> String {
        MediaType.of(value)
    }

    /// Whether `mediaType` matches `pattern` (`*/*`, `type/*`, `type/*+suffix` or exact).
    public static func matches(_ mediaType: String, pattern: String) -> Bool {
        if pattern == "*/*" { return !mediaType.isEmpty }
        guard let slash = pattern.firstIndex(of: "/"), let typeSlash = mediaType.firstIndex(of: "/") else { return pattern == mediaType }
        let type = pattern[..<slash]
        let subtype = pattern[pattern.index(after: slash)...]
        guard type == mediaType[..<typeSlash] else { return false }
        let actualSubtype = mediaType[mediaType.index(after: typeSlash)...]
        if subtype == "*" { return true }
        if subtype.hasPrefix("*+") { return actualSubtype == subtype.dropFirst(2) || actualSubtype.hasSuffix(subtype.dropFirst(1)) }
        return subtype == actualSubtype
    }
}

extension CallOptions {
    /// Validates this call's response by `rules` instead of the service's (see ``ValidationStage``).
    public mutating func validate(_ rules: ValidationStage.Rules) {
        self[option: ValidationStage.CallRules.self] = rules
    }
}

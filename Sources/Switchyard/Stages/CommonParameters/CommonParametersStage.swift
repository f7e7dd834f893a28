import Foundation
import HTTPTypes
import SwitchyardSupport

/// Adds a service's common parameters — app version, platform, timestamps, device ids — to every
/// call, where the call's parameter encoding puts parameters.
///
/// - GET, HEAD, DELETE and OPTIONS (and anything encoded as ``ParameterEncoding/query``): appended to
///   the query string.
/// - ``ParameterEncoding/json``: spliced into the body's top-level JSON object, byte for byte; the
///   rest of the body is not re-encoded. A call without a body gets `{…}` with just the common
///   parameters.
/// - ``ParameterEncoding/form`` and ``ParameterEncoding/jsonFormField(_:)``: appended as form
///   fields of their own — so a legacy `data={…}` body gets `&appid=…&ts=…` beside it.
/// - With ``Placement/query`` every common parameter goes to the query string, even on POST (what
///   many signed legacy APIs want).
/// - A body of another type (an upload, text) or a streamed body (``StreamedBody``) is left alone and
///   the parameters go to the query.
///
/// **Precedence.** By default the call's own value wins: a common parameter whose name the call
/// already sends is left out (``Precedence/callWins``). With ``Precedence/commonWins`` the common
/// value replaces the call's.
///
/// **Opting out.** A call skips the whole stage with `CallOptions(skippedStages: [.commonParameters])`,
/// or leaves out some names with ``CallOptions/omitCommonParameters(_:)``.
///
/// Dynamic values are computed for every attempt, so a retried call carries a fresh timestamp.
public struct CommonParametersStage: RequestStage, CredentialBearingStage {
    /// Where the common parameters go.
    public enum Placement: Sendable, Hashable {
        /// Where the call's encoding puts its parameters (the default).
        case byEncoding
        /// Always in the query string, whatever the method and body.
        case query
    }

    /// Which value wins when a call sends a parameter of the same name.
    public enum Precedence: Sendable, Hashable {
        /// The call's own value is kept (the default).
        case callWins
        /// The common value replaces the call's.
        case commonWins
    }

    /// The context key under which ``CallOptions/omitCommonParameters(_:)`` stores the names a call
    /// leaves out.
    public enum OmittedNames: CallOptionKey {
        /// The names to leave out.
        public typealias Value = Set<String>
        /// The option's name in errors.
        public static let name = "omitCommonParameters(_:)"
        /// ``StageID/commonParameters``.
        public static let stage = StageID.commonParameters
        /// Names omitted by the endpoint and by the call add up.
        public static func merge(_ earlier: Value, _ later: Value) -> Value { earlier.union(later) }
        /// Calls that send different parameters never share a response.
        public static func identity(_ value: Value) -> String? { value.sorted().joined(separator: ",") }
    }

    /// The parameters, in the order they are added.
    public let parameters: [CommonParameter]
    /// Where they go.
    public let placement: Placement
    /// Which value wins on a name clash.
    public let precedence: Precedence
    /// How arrays are written in a query or form.
    public let arrayStyle: QueryArrayStyle

    /// ``StageID/commonParameters``.
    public var id: StageID { .commonParameters }

    /// Creates the stage.
    public init(
        _ parameters: [CommonParameter],
        placement: Placement = .byEncoding,
        precedence: Precedence = .callWins,
        arrayStyle: QueryArrayStyle = .brackets
    ) {
        self.parameters = parameters
        self.placement = placement
        self.precedence = precedence
        self.arrayStyle = arrayStyle
    }

    /// Computes this call's values and merges them into the request.
    public func prepare(_ request: inout Request, context: CallContext) async throws {
        let omitted = context[OmittedNames.self] ?? []
        var values = Parameters()
        for parameter in parameters where !omitted.contains(parameter.name) {
            if let value = try await parameter.value(for: context), value != .null { values[parameter.name] = value }
        }
        guard !values.isEmpty else { return }
        switch target(for: request, context: context) {
        case .query: try mergeIntoQuery(values, request: &request)
        case .form: try mergeIntoForm(values, request: &request)
        case .json: try mergeIntoJSON(values, request: &request)
        }
    }

    private enum Target { case query, form, json }

    private func target(for request: Request, context: CallContext) -> Target {
        guard placement == .byEncoding, request.body?.stream == nil else { return .query }
        // A body already there decides: its fields go beside the stage's (a form, or a JSON object —
        // including one an encryption stage framed as `data=<ciphertext>` or `{"data":…}`).
        if request.body != nil {
            // One scan of the fields, no joined string; the plain `application/json` needs no lower-casing.
            let field = request.headerFields.value(.contentType) ?? ""
            if field == "application/json" { return .json }
            let contentType = field.lowercased()
            if contentType.hasPrefix("application/x-www-form-urlencoded") { return .form }
            if contentType.hasPrefix("application/json") || contentType.contains("+json") { return .json }
            return .query
        }
        switch context.parameterEncoding.resolved(for: request.method) {
        case .query, .automatic: return .query
        case .form, .jsonFormField: return .form
        case .json: return .json
        }
    }

    private func mergeIntoQuery(_ values: Parameters, request: inout Request) throws(SwitchyardError) {
        let existing = request.query.map(String.init) ?? ""
        let merged = try mergePairs(existing, values)
        let path = request.pathWithoutQuery
        request.path = merged.isEmpty ? String(path) : path + "?" + merged
    }

    private func mergeIntoForm(_ values: Parameters, request: inout Request) throws(SwitchyardError) {
        let existing = request.bodyText ?? ""
        if request.body == nil { request.headerFields[.contentType] = "application/x-www-form-urlencoded; charset=utf-8" }
        request.body = .bytes(Data(try mergePairs(existing, values).utf8))
    }

    /// Merges `values` into `a=1&b=2` text by the precedence rule.
    private func mergePairs(_ existing: String, _ values: Parameters) throws(SwitchyardError) -> String {
        var pairs = existing.split(separator: "&", omittingEmptySubsequences: true)
        let present = Set(pairs.map(Self.baseName))
        var added = Parameters()
        for element in values {
            if present.contains(element.name) {
                guard precedence == .commonWins else { continue }
                pairs.removeAll { Self.baseName($0) == element.name }
            }
            added[element.name] = element.value
        }
        let encoded = try FormURLEncoder(arrayStyle: arrayStyle).encode(added)
        if pairs.isEmpty { return encoded }
        return encoded.isEmpty ? pairs.joined(separator: "&") : pairs.joined(separator: "&") + "&" + encoded
    }

    /// The decoded name of a `name=value` pair, without an array or object suffix (`tags[]` → `tags`).
    private static func baseName(_ pair: Substring) -> String {
        let rawName = pair.firstIndex(of: "=").map { pair[..<$0] } ?? pair
        let name = PercentEncoding.decode(rawName)
        return name.firstIndex(of: "[").map { String(name[..<$0]) } ?? name
    }

    private func mergeIntoJSON(_ values: Parameters, request: inout Request) throws(SwitchyardError) {
        let body = request.body?.bytes
        guard let body, !body.withUnsafeBytes({ $0.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 } }) else {
            var output: [UInt8] = [UInt8(ascii: "{")]
            try appendMembers(values, to: &output, first: true)
            output.append(UInt8(ascii: "}"))
            request.body = .bytes(Data(output))
            if request.headerFields[.contentType] == nil { request.headerFields[.contentType] = "application/json" }
            return
        }
        let entries: [JSONMembers.Entry]
        do {
            entries = try JSONMembers.ordered(of: body)
        } catch {
            throw SwitchyardError(
                code: .encoding,
                message: "common parameters cannot be merged into this JSON body: \(error.message)",
                underlyingError: error
            )
        }
        // A few common parameters against a few members: a scan. A large body (or many parameters)
        // gets a set, so the check stays linear in the body whatever it holds.
        let present: Set<String>? = entries.count * values.count > 256 ? Set(entries.map(\.name)) : nil
        func isPresent(_ name: String) -> Bool { present?.contains(name) ?? entries.contains { $0.name == name } }
        // The call's names win unless the common values do: what is left of `values` is added.
        var added = values
        if precedence == .callWins, values.contains(where: { isPresent($0.name) }) {
            added = Parameters()
            for element in values where !isPresent(element.name) { added[element.name] = element.value }
        }
        guard !added.isEmpty else { return }
        // A common value replacing a member of the call's object: the object is rebuilt.
        let rebuild = precedence == .commonWins && entries.contains { added[$0.name] != nil }
        var pairs: [UInt8] = []
        pairs.reserveCapacity(32 * added.count)
        try appendMembers(added, to: &pairs, first: rebuild ? entries.allSatisfy { added[$0.name] != nil } : entries.isEmpty)
        let spliced: [UInt8]? = body.withUnsafeBytes { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + pairs.count + 2)
            if rebuild {
                // The members the call keeps, each copied byte for byte, then the common ones.
                output.append(UInt8(ascii: "{"))
                var first = true
                for entry in entries where added[entry.name] == nil {
                    if !first { output.append(UInt8(ascii: ",")) }
                    output.append(contentsOf: bytes[entry.start..<entry.member.valueRange.upperBound])
                    first = false
                }
                output.append(contentsOf: pairs)
                output.append(UInt8(ascii: "}"))
            } else {
                // Inserted just before the closing brace; the call's bytes are untouched.
                guard let close = bytes.lastIndex(of: UInt8(ascii: "}")) else { return nil }
                output.append(contentsOf: bytes[..<close])
                output.append(contentsOf: pairs)
                output.append(contentsOf: bytes[close...])
            }
            return output
        }
        guard let output = spliced else { return }
        request.body = .bytes(Data(output))
    }

    private func appendMembers(_ values: Parameters, to output: inout [UInt8], first: Bool) throws(SwitchyardError) {
        var first = first
        for element in values {
            if !first { output.append(UInt8(ascii: ",")) }
            JSONScan.appendString(element.name, to: &output)
            output.append(UInt8(ascii: ":"))
            try JSONValueWriter.append(element.value, name: element.name, to: &output)
            first = false
        }
    }
}

extension CallOptions {
    /// Leaves the named common parameters out of this call (see ``CommonParametersStage``).
    public mutating func omitCommonParameters(_ names: Set<String>) {
        self[option: CommonParametersStage.OmittedNames.self] = names
    }
}

extension CommonParametersStage: FixedCredentialStage {
    /// The fixed scalar parameters with secret names that the service declared its own
    /// (``CommonParameter/fixed(_:_:isServiceCredential:)``): they name no user. An undeclared one is a user's.
    var fixedCredentials: [FixedCredential] {
        parameters.compactMap { parameter in
            guard parameter.isServiceCredential, case .fixed(let value) = parameter.source, Redaction.default.isSensitive(parameter.name),
                let text = value.scalarText
            else { return nil }
            return FixedCredential(name: parameter.name.lowercased(), value: text)
        }
    }
}

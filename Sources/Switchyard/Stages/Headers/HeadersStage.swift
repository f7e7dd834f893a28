public import HTTPTypes

/// Adds a service's base header fields — fixed or computed per call — to every call.
///
/// A field the call already carries (from the endpoint's or the call's own header fields) is left as
/// the call set it: the call's value wins. A call drops some base fields with
/// ``CallOptions/omitHeaders(_:)``, or the whole stage with `skippedStages: [.headers]`.
///
/// Static fields that never change can also live in ``ServiceDefaults/headerFields``; this stage is
/// for values that are computed (a locale, a device id, a request signature of your own) and for
/// fields a call must be able to opt out of.
public struct HeadersStage: RequestStage, CredentialBearingStage {
    /// The context key under which ``CallOptions/omitHeaders(_:)`` stores the fields a call leaves out.
    public enum OmittedNames: CallOptionKey {
        /// The names to leave out.
        public typealias Value = Set<HTTPField.Name>
        /// The option's name in errors.
        public static let name = "omitHeaders(_:)"
        /// ``StageID/headers``.
        public static let stage = StageID.headers
        /// Names omitted by the endpoint and by the call add up.
        public static func merge(_ earlier: Value, _ later: Value) -> Value { earlier.union(later) }
        /// Calls that send different header fields never share a response.
        public static func identity(_ value: Value) -> String? { value.map(\.canonicalName).sorted().joined(separator: ",") }
    }

    /// The fields, in the order they are added.
    public let headers: [CommonHeader]

    /// ``StageID/headers``.
    public var id: StageID { .headers }

    /// Creates the stage from fields, fixed or dynamic.
    public init(_ headers: [CommonHeader]) {
        self.headers = headers
    }

    /// Creates the stage from fixed fields.
    public init(_ fields: HTTPFields) {
        self.headers = fields.map { CommonHeader.fixed($0.name, $0.value) }
    }

    /// Adds the fields the call does not set itself and has not opted out of.
    public func prepare(_ request: inout Request, context: CallContext) async throws {
        let omitted = context[OmittedNames.self] ?? []
        for header in headers where !omitted.contains(header.name) && request.headerFields[header.name] == nil {
            if let value = try await header.value(for: context) {
                request.headerFields.append(HTTPField(name: header.name, value: value))
            }
        }
        for name in omitted { request.headerFields[name] = nil }
    }
}

extension CallOptions {
    /// Leaves the named base header fields out of this call (see ``HeadersStage``).
    public mutating func omitHeaders(_ names: Set<HTTPField.Name>) {
        self[option: HeadersStage.OmittedNames.self] = names
    }
}

extension HeadersStage: FixedCredentialStage {
    /// The fixed fields with credential names that the service declared its own
    /// (``CommonHeader/fixed(_:_:isServiceCredential:)``): they name no user. An undeclared one is a user's.
    var fixedCredentials: [FixedCredential] {
        headers.compactMap { header in
            guard header.isServiceCredential, case .fixed(let value) = header.source, CredentialPartition.isCredential(header.name) else {
                return nil
            }
            return FixedCredential(name: header.name.canonicalName, value: value)
        }
    }
}

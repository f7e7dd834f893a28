/// One parameter that ``CommonParametersStage`` adds to every call of a service: a fixed value, or
/// one computed for each call (a timestamp, a device id, a token), possibly asynchronously.
public struct CommonParameter: Sendable {
    /// Where the value comes from.
    enum Source: Sendable {
        case fixed(ParameterValue)
        case dynamic(@Sendable (CallContext) async throws -> ParameterValue?)
    }

    /// The parameter's name as sent.
    public let name: String
    let source: Source

    /// A parameter with the same value on every call.
    public static func fixed(_ name: String, _ value: ParameterValue) -> CommonParameter {
        CommonParameter(name: name, source: .fixed(value))
    }

    /// A parameter computed for each call (and for each attempt of it). Return `nil` to leave the
    /// parameter out of this call; a thrown error ends the call before anything is sent.
    public static func dynamic(
        _ name: String,
        _ value: @escaping @Sendable (CallContext) async throws -> ParameterValue?
    ) -> CommonParameter {
        CommonParameter(name: name, source: .dynamic(value))
    }

    /// This call's value, or `nil` to leave it out.
    func value(for context: CallContext) async throws -> ParameterValue? {
        switch source {
        case .fixed(let value): value
        case .dynamic(let make): try await make(context)
        }
    }
}

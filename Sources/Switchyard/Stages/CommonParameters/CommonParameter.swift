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
    /// Whether the service declared the fixed value its own credential (``fixed(_:_:isServiceCredential:)``).
    let isServiceCredential: Bool

    /// A parameter with the same value on every call.
    ///
    /// A parameter whose name marks a credential (`access_token`, `appsecret`, any name
    /// ``Redaction/default`` hides) is taken for a user's: an answer to a call that carried it is never
    /// filed as public by a ``CacheStage`` and goes with ``APIClient/endSession(for:account:)``. Set
    /// `isServiceCredential` to declare the value the service's own, the same whoever is signed in (an
    /// app key shipped with the app), so that it names no user (``CredentialPartition``). Never declare
    /// a token a user signed in with.
    ///
    /// ```swift
    /// CommonParametersStage([.fixed("appkey", "app-key-1", isServiceCredential: true)])
    /// ```
    public static func fixed(_ name: String, _ value: ParameterValue, isServiceCredential: Bool = false) -> CommonParameter {
        CommonParameter(name: name, source: .fixed(value), isServiceCredential: isServiceCredential)
    }

    /// A parameter computed for each call (and for each attempt of it). Return `nil` to leave the
    /// parameter out of this call; a thrown error ends the call before anything is sent.
    public static func dynamic(
        _ name: String,
        _ value: @escaping @Sendable (CallContext) async throws -> ParameterValue?
    ) -> CommonParameter {
        CommonParameter(name: name, source: .dynamic(value), isServiceCredential: false)
    }

    /// This call's value, or `nil` to leave it out.
    func value(for context: CallContext) async throws -> ParameterValue? {
        switch source {
        case .fixed(let value): value
        case .dynamic(let make): try await make(context)
        }
    }
}

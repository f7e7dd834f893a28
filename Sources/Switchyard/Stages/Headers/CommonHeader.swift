public import HTTPTypes

/// One header field that ``HeadersStage`` adds to every call of a service: a fixed value, or one
/// computed for each call (possibly asynchronously).
public struct CommonHeader: Sendable {
    /// Where the value comes from.
    enum Source: Sendable {
        case fixed(String)
        case dynamic(@Sendable (CallContext) async throws -> String?)
    }

    /// The field's name.
    public let name: HTTPField.Name
    let source: Source
    /// Whether the service declared the fixed value its own credential (``fixed(_:_:isServiceCredential:)``).
    let isServiceCredential: Bool

    /// A field with the same value on every call.
    ///
    /// A field whose name marks a credential (`Authorization`, `X-Api-Key`, any name ``Redaction/default``
    /// hides) is taken for a user's: an answer to a call that carried it is never filed as public by a
    /// ``CacheStage`` — kept in memory under the credential's partition when the stage runs outside the
    /// cache, not stored when it runs inside — and goes with ``APIClient/endSession(for:account:)``.
    /// Set `isServiceCredential` to declare the value the service's own, the same whoever is signed
    /// in — an app key shipped with the app — so that it names no user and the answers stay shareable
    /// (``CredentialPartition``). Never declare a token a user signed in with.
    ///
    /// ```swift
    /// HeadersStage([.fixed(HTTPField.Name("X-Api-Key")!, "app-key-1", isServiceCredential: true)])
    /// ```
    public static func fixed(_ name: HTTPField.Name, _ value: String, isServiceCredential: Bool = false) -> CommonHeader {
        CommonHeader(name: name, source: .fixed(value), isServiceCredential: isServiceCredential)
    }

    /// A field computed for each call and each attempt; return `nil` to leave it out. A thrown error
    /// ends the call before anything is sent.
    public static func dynamic(_ name: HTTPField.Name, _ value: @escaping @Sendable (CallContext) async throws -> String?) -> CommonHeader {
        CommonHeader(name: name, source: .dynamic(value), isServiceCredential: false)
    }

    /// This call's value, or `nil` to leave the field out.
    func value(for context: CallContext) async throws -> String? {
        switch source {
        case .fixed(let value): value
        case .dynamic(let make): try await make(context)
        }
    }
}

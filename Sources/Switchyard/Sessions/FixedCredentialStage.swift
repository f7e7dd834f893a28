/// A stage that may put credentials the service declared its own on calls — of a fixed value, the
/// same whoever is signed in, such as an app key — which a ``CredentialPartition`` therefore need not
/// name: the `.fixed` entries with secret names of ``HeadersStage`` and ``CommonParametersStage``
/// made with `isServiceCredential: true`. A credential that reaches the transport — or that a request
/// carries when its partition is taken — with exactly such a name and value is the service's, not a
/// user's. Every other credential, fixed or not, is a user's.
protocol FixedCredentialStage: Stage {
    /// The fixed credentials: lower-cased names and values.
    var fixedCredentials: [FixedCredential] { get }
}

/// One credential of a fixed value (``FixedCredentialStage``).
struct FixedCredential: Hashable, Sendable {
    /// The header field's or parameter's name, lower-cased.
    let name: String
    /// Its value, as sent (percent-decoded for parameters).
    let value: String
}

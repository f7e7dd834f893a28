/// A stage that may put credentials of a fixed value on calls — the same whoever is signed in, such
/// as an app key — which a ``CredentialPartition`` therefore need not name: the `.fixed` entries with
/// secret names of ``HeadersStage`` and ``CommonParametersStage``. A credential that reaches the
/// transport with exactly such a name and value is the service's, not a user's.
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

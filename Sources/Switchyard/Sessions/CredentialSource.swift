/// A stage that puts credentials on the calls it sees — a token, a session, an API key — and can say,
/// before a call is sent, which credentials it will use.
///
/// The pipeline gives every call its service's credential sources (``CallContext/credentialSources``),
/// so a cache or the same-request check registered *outside* the stage still partitions by the
/// credentials the request will carry when it is sent (``CredentialPartition``). ``AuthorizationStage``
/// is one.
public protocol CredentialSource: CredentialBearingStage {
    /// A stable text that identifies the credentials this stage will put on the call in `context` —
    /// the account they belong to when known, as `account:<name>` (so that
    /// ``APIClient/endSession(for:account:)`` drops that account's cached entries), else a digest of the
    /// credential itself — or `nil` when it will add none. Never return the credential itself: the text is hashed into partitions, but
    /// it should not be a secret on its own.
    ///
    /// - Parameter context: the call's context.
    func credentialFingerprint(for context: CallContext) async throws -> String?

    /// The names of the header fields and parameters this stage writes its credentials to (compared
    /// without case), such as `["Authorization"]`. When the fingerprint is not `nil`, credentials
    /// under these names that reach the transport are the fingerprint's; any other credential that a
    /// stage inside a cache or the same-request check adds makes the exchange unshareable
    /// (``CredentialPartition``).
    var credentialNames: Set<String> { get }
}

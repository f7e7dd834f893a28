/// Supplies the access token that ``AuthorizationStage`` puts on every call, and obtains a new one
/// when the backend says the current one has expired.
///
/// Implementations typically read the token from secure storage and refresh it with a call to an
/// authentication service — a nested call through an ``APIClient`` is fine; its failure becomes
/// the ``SwitchyardError/Code/authentication`` error of every call that waited for it.
public protocol TokenProvider: Sendable {
    /// The token to use now, or `nil` to send calls without one.
    func currentToken() async throws -> String?

    /// Obtains a new token to replace `expired`, which the backend refused. ``AuthorizationStage``
    /// calls this once for all the calls that were refused with the same token, however many there are.
    func refreshToken(replacing expired: String) async throws -> String

    /// The account the current token belongs to, when the provider knows it: calls for one account
    /// share cached responses across token refreshes (``CredentialPartition``). `nil` by default, and
    /// then the token itself (as a digest) tells users apart.
    func account() async throws -> String?

    /// Where the provider announces a sign-in, sign-out or account switch, so that the stage forgets
    /// its token at once instead of learning it from a refused call; `nil` by default.
    var changes: TokenChanges? { get }
}

extension TokenProvider {
    /// No account is known: the token tells users apart.
    public func account() async throws -> String? { nil }

    /// The provider announces nothing.
    public var changes: TokenChanges? { nil }
}

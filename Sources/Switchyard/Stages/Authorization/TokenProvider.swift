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
}

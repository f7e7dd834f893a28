/// A stage that keeps state belonging to a signed-in user — a token, cached responses — and drops it
/// when the user's session ends (``APIClient/endSession(for:account:)``).
public protocol SessionBoundStage: Stage {
    /// Forgets what belongs to the ending session: `account` names the account when the app uses
    /// account ids (``CallOptions/account``); `nil` means every signed-in user of the service.
    ///
    /// - Parameter account: the account whose session ends, or `nil` for all of them.
    func endSession(account: String?) async
}

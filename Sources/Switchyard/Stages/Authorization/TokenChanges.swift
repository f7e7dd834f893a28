import Synchronization

/// A signal a ``TokenProvider`` raises when the signed-in user changes — sign-in, sign-out, account
/// switch — so that every ``AuthorizationStage`` over the provider forgets its token at once and asks
/// the provider again on the next call.
///
/// ```swift
/// final class Session: TokenProvider {
///     let changes: TokenChanges? = TokenChanges()
///     func signIn(as user: User) { store(user.token); changes?.announce() }
///     …
/// }
/// ```
public final class TokenChanges: Sendable {
    private let observers = Mutex<[@Sendable () -> Void]>([])

    /// Creates a signal with no observers.
    public init() {}

    /// Tells every stage over the provider that the user changed.
    public func announce() {
        for observer in observers.withLock({ $0 }) { observer() }
    }

    /// Runs `observer` on every announcement.
    func observe(_ observer: @escaping @Sendable () -> Void) {
        observers.withLock { $0.append(observer) }
    }
}

/// Where a call started with a ``CallHandle`` stands.
///
/// A handle starts ``running`` and ends in exactly one of the other states, never to change again.
/// A call that ends with ``SwitchyardError/Code/cancelled`` — by ``CallHandle/cancel()``,
/// `client.cancel(.id(id))`, a tag, a scope or a sign-out — is ``cancelled``, not ``failed(_:)``, so a
/// screen can tell "the user gave up" from "something went wrong".
public enum CallState: Sendable {
    /// The call has not ended yet.
    case running
    /// The call produced its value.
    case succeeded
    /// The call failed with this error.
    case failed(SwitchyardError)
    /// The call was cancelled before it ended.
    case cancelled

    /// Whether the call has ended (any state but ``running``).
    public var isFinished: Bool {
        if case .running = self { return false }
        return true
    }
}

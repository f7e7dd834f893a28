extension CallContext {
    /// The account the call is made for, when the app names accounts (``CallOptions/account``): part
    /// of the call's ``CredentialPartition``, and what ``APIClient/endSession(for:account:)`` cancels
    /// by.
    public var account: String? {
        get { self[CallAccount.self] }
        set { self[CallAccount.self] = newValue }
    }
}

/// The key the call's account is kept under in its context, as any feature keeps what it knows of
/// a call.
private enum CallAccount: CallContextKey {
    typealias Value = String
}

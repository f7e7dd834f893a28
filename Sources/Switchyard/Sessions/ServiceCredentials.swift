/// A service's credential-bearing stages as its calls' contexts carry them, worked out once when
/// the service is registered: caches and the same-request check ask them which credentials a
/// request will carry.
final class ServiceCredentials: Sendable {
    /// The stages that put credentials on calls (opt-in ones included), outermost first.
    let sources: [any CredentialSource]
    /// The credentials of a fixed value the stages put on calls (``FixedCredentialStage``).
    let fixed: Set<FixedCredential>

    init(sources: [any CredentialSource], fixed: Set<FixedCredential>) {
        self.sources = sources
        self.fixed = fixed
    }

    /// The credentials of `stages`.
    convenience init(_ stages: [any Stage]) {
        self.init(
            sources: stages.compactMap { $0 as? any CredentialSource },
            fixed: Set(stages.flatMap { ($0 as? any FixedCredentialStage)?.fixedCredentials ?? [] })
        )
    }
}

extension Pipeline {
    /// The stages that keep a signed-in user's state (opt-in ones included).
    var sessionBoundStages: [any SessionBoundStage] { stages.compactMap { $0 as? any SessionBoundStage } }
    /// The stages that put credentials on calls (opt-in ones included), outermost first: every call
    /// carries them in ``CallContext/credentialSources``.
    public var credentialSources: [any CredentialSource] { stages.compactMap { $0 as? any CredentialSource } }
}

extension CallContext {
    /// The service's stages that put credentials on calls, set by the client for every call; caches
    /// and the same-request check ask them which credentials a request will carry.
    public internal(set) var credentialSources: [any CredentialSource] {
        get { credentials?.sources ?? [] }
        set { serviceState = ServiceCredentials(sources: newValue, fixed: fixedCredentials) }
    }

    /// The service's credentials of a fixed value (an app key in a ``HeadersStage``), set with
    /// ``credentialSources``: what reaches the transport with exactly these names and values is the
    /// service's, not a user's.
    var fixedCredentials: Set<FixedCredential> {
        get { credentials?.fixed ?? [] }
        set { serviceState = ServiceCredentials(sources: credentialSources, fixed: newValue) }
    }

    /// The service's credentials, as the client or the pipeline set them.
    private var credentials: ServiceCredentials? { serviceState as? ServiceCredentials }
}

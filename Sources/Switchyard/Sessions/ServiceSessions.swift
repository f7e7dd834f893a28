/// What the sessions feature knows of a service's stages, worked out once when the service is
/// registered and carried by every call's context: the stages that put credentials on calls (caches
/// and the same-request check ask them which credentials a request will carry) and the stages that
/// keep a signed-in user's state.
final class ServiceSessions: Sendable {
    /// The stages that put credentials on calls (opt-in ones included), outermost first.
    let sources: [any CredentialSource]
    /// The credentials of a fixed value the stages put on calls (``FixedCredentialStage``).
    let fixed: Set<FixedCredential>
    /// The stages that keep a signed-in user's state (opt-in ones included).
    let sessionBound: [any SessionBoundStage]

    init(sources: [any CredentialSource], fixed: Set<FixedCredential>, sessionBound: [any SessionBoundStage] = []) {
        self.sources = sources
        self.fixed = fixed
        self.sessionBound = sessionBound
    }

    /// What `stages` (as a pipeline runs them) hold.
    convenience init(_ stages: [any Stage]) {
        self.init(
            sources: stages.compactMap { $0 as? any CredentialSource },
            fixed: Set(stages.flatMap { ($0 as? any FixedCredentialStage)?.fixedCredentials ?? [] }),
            sessionBound: stages.compactMap { $0 as? any SessionBoundStage }
        )
    }
}

extension Pipeline {
    /// The sessions' view of the stages: the one the registry derived, or, for a pipeline built by
    /// hand, derived now.
    private var sessions: ServiceSessions { serviceState as? ServiceSessions ?? ServiceSessions(stages) }

    /// The stages that keep a signed-in user's state (opt-in ones included).
    var sessionBoundStages: [any SessionBoundStage] { sessions.sessionBound }
    /// The stages that put credentials on calls (opt-in ones included), outermost first: every call
    /// carries them in ``CallContext/credentialSources``.
    public var credentialSources: [any CredentialSource] { sessions.sources }
}

extension CallContext {
    /// The service's stages that put credentials on calls, set by the client for every call; caches
    /// and the same-request check ask them which credentials a request will carry.
    public internal(set) var credentialSources: [any CredentialSource] {
        get { sessions?.sources ?? [] }
        set { serviceState = ServiceSessions(sources: newValue, fixed: fixedCredentials, sessionBound: sessions?.sessionBound ?? []) }
    }

    /// The service's credentials of a fixed value (an app key in a ``HeadersStage``), set with
    /// ``credentialSources``: what reaches the transport with exactly these names and values is the
    /// service's, not a user's.
    var fixedCredentials: Set<FixedCredential> {
        get { sessions?.fixed ?? [] }
        set { serviceState = ServiceSessions(sources: credentialSources, fixed: newValue, sessionBound: sessions?.sessionBound ?? []) }
    }

    /// The service's sessions view, as the client or the pipeline set it.
    private var sessions: ServiceSessions? { serviceState as? ServiceSessions }
}

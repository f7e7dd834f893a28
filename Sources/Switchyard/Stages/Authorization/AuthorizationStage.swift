public import HTTPTypes

/// Puts an access token on every call and, when the backend refuses it as expired, refreshes it
/// **once** for all the calls that were refused together and replays each of them once.
///
/// - The token comes from a ``TokenProvider``; the stage asks it once and reuses the answer until a
///   refresh replaces it.
/// - A call is "refused" when the response (or the error an inner stage made of it) has one of
///   ``Trigger/statuses`` (401 by default) or, when an ``EnvelopeStage`` sits inside this stage, one of
///   ``Trigger/businessCodes`` (for example a backend's "token expired" code).
/// - However many calls are refused with the same token — 50 at once, say — the provider's
///   ``TokenProvider/refreshToken(replacing:)`` runs once; every one of them waits for it and is
///   replayed with the new token through the stages inside this one (so a signature is made afresh).
///   A replay that is refused again is not replayed a second time.
/// - If the refresh fails, every call waiting for it ends with ``SwitchyardError/Code/authentication``
///   carrying the refresh's error as its underlying error; so does every call that was sent with the
///   same expired token and is refused after the failure. Calls started later try a new refresh.
///
/// - A call the provider itself makes while loading or refreshing the token — a refresh through a
///   service that has this same stage — passes through the stage untouched: it carries no token from
///   the stage and is never held up by the refresh it is part of. When that call is refused, the
///   refresh fails and every call waiting for it ends promptly with
///   ``SwitchyardError/Code/authentication``.
///
/// **Sessions.** When the user signs out or another signs in, the stage must forget its token: the
/// provider announces it (``TokenProvider/changes``), or the app ends the session with
/// ``APIClient/endSession(for:account:)`` (which also cancels the service's calls in flight and drops
/// its private cached responses), or calls ``credentialsChanged()``. The provider is then asked
/// again on the next call, and a `nil` answer sends calls without a token at once.
///
/// The stage is a ``CredentialSource``: caches and the same-request check partition by the account the
/// provider names (``TokenProvider/account()``) or, without one, by a digest of the token.
///
/// The stage is a value; copies share one token and one refresh. Register one instance per group
/// of services that share credentials.
public struct AuthorizationStage: CredentialSource, SessionBoundStage {
    /// What marks a call as refused for an expired token.
    public struct Trigger: Sendable, Hashable {
        /// HTTP statuses that mean "the token has expired"; 401 by default.
        public var statuses: Set<Int>
        /// Envelope business codes that mean the same; none by default.
        public var businessCodes: Set<String>

        /// Creates a trigger.
        public init(statuses: Set<Int> = [401], businessCodes: Set<String> = []) {
            self.statuses = statuses
            self.businessCodes = businessCodes
        }
    }

    /// The header field the token goes in; `Authorization` by default.
    public let field: HTTPField.Name
    /// Turns a token into the field's value; `Bearer <token>` by default.
    public let format: @Sendable (String) -> String
    /// What marks a call as refused.
    public let trigger: Trigger
    private let coordinator: TokenCoordinator

    /// ``StageID/authorization``.
    public var id: StageID { .authorization }

    /// Creates the stage.
    public init(
        provider: some TokenProvider,
        field: HTTPField.Name = .authorization,
        trigger: Trigger = Trigger(),
        format: @escaping @Sendable (String) -> String = { "Bearer \($0)" }
    ) {
        self.field = field
        self.format = format
        self.trigger = trigger
        self.coordinator = TokenCoordinator(provider: provider)
    }

    /// Forgets the token and any refresh in flight: the provider is asked again on the next call.
    public func credentialsChanged() { coordinator.reset() }

    /// Forgets the token (the stage holds one token for all accounts, so the account is not needed).
    public func endSession(account: String?) async { coordinator.reset() }

    /// The provider's account, else a digest of the token the next call will carry; `nil` without a
    /// token or inside the provider's own calls.
    public func credentialFingerprint(for context: CallContext) async throws -> String? {
        if coordinator.isProvidingInCurrentTask { return nil }
        if let account = try await coordinator.account() { return "account:" + account }
        guard let token = try await coordinator.token() else { return nil }
        return "token:" + CredentialPartition.fingerprint(of: token)
    }

    /// The field the token goes in (``field``).
    public var credentialNames: Set<String> { [field.canonicalName] }

    /// Adds the token, sends the call, and refreshes and replays it once if it is refused.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        // The provider's own call (a refresh through this service) must neither carry the token
        // being replaced nor wait for the refresh it belongs to.
        if coordinator.isProvidingInCurrentTask { return try await next(request, context) }
        let token: String?
        do {
            token = try await coordinator.token()
        } catch {
            throw Self.authenticationError("no access token could be obtained", cause: error)
        }
        guard let token else { return try await next(request, context) }
        var first = request
        first.headerFields[field] = format(token)
        let sentAt = ContinuousClock.now
        do {
            let response = try await next(first, context)
            guard trigger.statuses.contains(response.status.code) else { return response }
        } catch let error as SwitchyardError where isRefusal(error) {
            // Refused through an inner stage's error (a status check or a business code): refresh below.
        }
        let fresh: String
        do {
            fresh = try await coordinator.refreshed(replacing: token, sentAt: sentAt)
        } catch {
            throw Self.authenticationError("the expired access token could not be refreshed", cause: error)
        }
        var replay = request
        replay.headerFields[field] = format(fresh)
        return try await next(replay, context.nextAttempt())
    }

    private func isRefusal(_ error: SwitchyardError) -> Bool {
        if let status = error.status, trigger.statuses.contains(status.code), error.code == .httpStatus || error.code == .business {
            return true
        }
        if let code = error.detail(as: EnvelopeFailure.self)?.businessCode, trigger.businessCodes.contains(code) { return true }
        return false
    }

    private static func authenticationError(_ message: String, cause: any Error) -> SwitchyardError {
        if let existing = cause as? SwitchyardError, existing.code == .cancelled { return existing }
        if cause is CancellationError { return SwitchyardError.wrapping(cause) }
        let detail = (cause as? SwitchyardError)?.message ?? String(describing: cause)
        return SwitchyardError(code: .authentication, message: "\(message): \(detail)", underlyingError: cause)
    }
}

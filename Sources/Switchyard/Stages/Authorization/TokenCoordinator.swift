import Synchronization

/// The shared state behind ``AuthorizationStage``: the token in use, and at most one refresh in
/// flight, which every refused call awaits instead of starting its own.
///
/// A session's end or a change the provider announces (``reset()``) forgets the token and starts a
/// new generation: a load or refresh still running for the old one cannot bring its token back.
final class TokenCoordinator: Sendable {
    /// The coordinators whose provider is being asked for a token (a load or a refresh) in the
    /// current task: a call the provider makes through a service with the same stage must not wait
    /// for the answer it is itself producing.
    @TaskLocal static var providing: Set<ObjectIdentifier> = []

    private struct State {
        var generation = 0
        var token: String?
        var loaded = false
        var load: Task<String?, any Error>?
        var refresh: (expired: String, task: Task<String, any Error>)?
        /// The last failed refresh: which token it was replacing, when it ended, and why.
        var failure: (expired: String, at: ContinuousClock.Instant, error: any Error)?
    }

    private let provider: any TokenProvider
    private let state = Mutex(State())

    init(provider: any TokenProvider) {
        self.provider = provider
        provider.changes?.observe { [weak self] in self?.reset() }
    }

    /// Whether the current task is this coordinator's provider at work (loading or refreshing).
    var isProvidingInCurrentTask: Bool { Self.providing.contains(ObjectIdentifier(self)) }

    /// Forgets the token, any failure, and the loads and refreshes in flight: the next call asks the
    /// provider again.
    func reset() {
        state.withLock { state in
            state = State(generation: state.generation + 1)
        }
    }

    /// The provider's account for the current token, if it names one.
    func account() async throws -> String? {
        try await Self.$providing.withValue(markedAsProviding) { try await provider.account() }
    }

    /// Runs `work` marked as this coordinator's provider at work.
    private func providing<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
        let marked = markedAsProviding
        return Task { try await Self.$providing.withValue(marked) { try await work() } }
    }

    /// The current task's providing set with this coordinator added.
    private var markedAsProviding: Set<ObjectIdentifier> {
        Self.providing.union([ObjectIdentifier(self)])
    }

    /// The token to send. The provider is asked once; later calls reuse its answer until a refresh.
    func token() async throws -> String? {
        enum Plan {
            case known(String?)
            case wait(Task<String?, any Error>)
        }
        let plan: Plan = state.withLock { state in
            if state.loaded { return .known(state.token) }
            if let load = state.load { return .wait(load) }
            let load = providing { [provider] in try await provider.currentToken() }
            state.load = load
            return .wait(load)
        }
        guard case .wait(let task) = plan else {
            if case .known(let token) = plan { return token }
            return nil
        }
        do {
            let token = try await task.value
            state.withLock { state in
                // A missing token is not remembered: the provider is asked again next time (after a log-in).
                if state.load == task, !state.loaded, state.refresh == nil, let token {
                    state.token = token
                    state.loaded = true
                }
                if state.load == task { state.load = nil }
            }
            return token
        } catch {
            state.withLock { state in
                if state.load == task { state.load = nil }
            }
            throw error
        }
    }

    /// A token to replace `expired`, which a call sent at `sentAt` and had refused.
    ///
    /// - If another call has already replaced `expired`, that newer token is returned at once.
    /// - If a refresh of `expired` is in flight, this call waits for it.
    /// - If a refresh of `expired` failed after this call sent it, this call shares that failure
    ///   rather than starting another refresh; a call that started later gets a fresh attempt.
    func refreshed(replacing expired: String, sentAt: ContinuousClock.Instant) async throws -> String {
        enum Plan {
            case use(String)
            case wait(Task<String, any Error>)
            case fail(any Error)
        }
        let plan: Plan = state.withLock { state in
            if let token = state.token, token != expired { return .use(token) }
            if let refresh = state.refresh, refresh.expired == expired { return .wait(refresh.task) }
            if let failure = state.failure, failure.expired == expired, failure.at >= sentAt { return .fail(failure.error) }
            let task = providing { [provider] in try await provider.refreshToken(replacing: expired) }
            state.refresh = (expired, task)
            return .wait(task)
        }
        switch plan {
        case .use(let token):
            return token
        case .fail(let error):
            throw error
        case .wait(let task):
            do {
                let token = try await task.value
                state.withLock { state in
                    if state.refresh?.task == task {
                        state.token = token
                        state.loaded = true
                        state.refresh = nil
                        state.failure = nil
                    }
                }
                return token
            } catch {
                state.withLock { state in
                    if state.refresh?.task == task {
                        state.refresh = nil
                        state.failure = (expired, .now, error)
                    }
                }
                throw error
            }
        }
    }
}

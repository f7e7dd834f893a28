/// How a batch treats a failure.
public enum BatchMode: Sendable, Hashable {
    /// Every call runs to its end; each result is reported.
    case collectAll
    /// The first failure cancels the calls still running; they report ``SwitchyardError/Code/cancelled``.
    case failFast
}

/// Observes a batch or a chain as a whole; every closure is optional and must return quickly.
public struct GroupObserver: Sendable {
    /// Called once with the number of calls (for a chain, steps) before any starts; a chain's steps
    /// chosen at run time (``CallChain/repeating(_:)``) are not known yet and each adds one to the
    /// total ``progress`` reports.
    public var willStart: (@Sendable (Int) -> Void)?
    /// Called as calls (steps) end: how many have ended, out of how many.
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// Called once at the end with how many succeeded and how many failed.
    public var didFinish: (@Sendable (Int, Int) -> Void)?

    /// Creates an observer.
    public init(
        willStart: (@Sendable (Int) -> Void)? = nil,
        progress: (@Sendable (Int, Int) -> Void)? = nil,
        didFinish: (@Sendable (Int, Int) -> Void)? = nil
    ) {
        self.willStart = willStart
        self.progress = progress
        self.didFinish = didFinish
    }
}

/// One call of a batch or the first step of a chain: given the client and the options that tie it to
/// the group (its scope), it makes its call and returns the value. What it throws is reported as a
/// ``SwitchyardError`` (a foreign error is wrapped).
public typealias GroupCall<Output> = @Sendable (APIClient, CallOptions) async throws -> Output

extension APIClient {
    /// Runs `calls` concurrently and returns their results **in input order**, whatever order they
    /// end in.
    ///
    /// Each call receives options carrying the batch's scope: releasing `scope` (or calling its
    /// ``RequestScope/cancelAll()``) cancels the whole batch, as does cancelling the calling task.
    /// In ``BatchMode/failFast`` the first failure cancels the rest.
    public func batch<Output: Sendable>(
        _ calls: [GroupCall<Output>],
        mode: BatchMode = .collectAll,
        scope: RequestScope? = nil,
        observer: GroupObserver = GroupObserver()
    ) async -> [Result<Output, SwitchyardError>] {
        // Cancelling or releasing the caller's scope cancels the group's calls; the calls hold the
        // group's scope weakly, so it must live until the group ends.
        let (batchScope, unlink) = RequestScope.child(of: scope)
        defer {
            unlink()
            withExtendedLifetime(batchScope) {}
        }
        var options = CallOptions()
        options.scope = batchScope
        observer.willStart?(calls.count)
        var results = [Result<Output, SwitchyardError>?](repeating: nil, count: calls.count)
        await withTaskGroup(of: (Int, Result<Output, SwitchyardError>).self) { group in
            for (index, call) in calls.enumerated() {
                group.addTask { [options] in
                    do {
                        return (index, .success(try await call(self, options)))
                    } catch {
                        return (index, .failure(SwitchyardError.wrapping(error)))
                    }
                }
            }
            var ended = 0
            for await (index, result) in group {
                results[index] = result
                ended += 1
                observer.progress?(ended, calls.count)
                if mode == .failFast, case .failure = result {
                    batchScope.cancelAll()
                    group.cancelAll()  // work in a call that is not a client call stops too
                }
            }
        }
        let final = results.map { $0 ?? .failure(SwitchyardError(code: .cancelled, message: "The call was cancelled with its batch.")) }
        let failures = final.filter { if case .failure = $0 { true } else { false } }.count
        observer.didFinish?(final.count - failures, failures)
        return final
    }
}

import Synchronization

/// Calls made one after another, each built from the previous one's value — log in, then fetch
/// the profile with the token — stopping at the first failure with that failure's error.
///
/// ```swift
/// let profile = try await client.chain { client, options in
///     try await client.send(LogIn(user: "ada"), options: options).value
/// }.then { session, client, options in
///     try await client.send(GetProfile(token: session.token), options: options).value
/// }.run()
/// ```
///
/// Each step receives options carrying the chain's scope: releasing the scope passed to
/// ``run(scope:observer:)`` (or cancelling the calling task) cancels the step in flight and no later
/// step starts.
public struct CallChain<Value: Sendable>: Sendable {
    let steps: Int
    let body: @Sendable (APIClient, CallOptions, @Sendable () -> Void) async throws(SwitchyardError) -> Value
    let client: APIClient

    /// Adds a step built from the previous step's value.
    public func then<Next: Sendable>(_ step: @escaping @Sendable (Value, APIClient, CallOptions) async throws -> Next) -> CallChain<Next> {
        let body = self.body
        return CallChain<Next>(
            steps: steps + 1,
            body: { client, options, stepEnded throws(SwitchyardError) in
                let value = try await body(client, options, stepEnded)
                guard !Task.isCancelled, options.scope?.isCancelled != true else {
                    throw SwitchyardError(code: .cancelled, message: "The chain was cancelled between steps.")
                }
                let next: Next
                do {
                    next = try await step(value, client, options)
                } catch {
                    throw SwitchyardError.wrapping(error)
                }
                stepEnded()
                return next
            },
            client: client
        )
    }

    /// Runs the steps in order and returns the last one's value.
    ///
    /// - Throws: the first failing step's error; later steps do not run.
    public func run(scope: RequestScope? = nil, observer: GroupObserver = GroupObserver()) async throws(SwitchyardError) -> Value {
        // Cancelling or releasing the caller's scope cancels the group's calls; the calls hold the
        // group's scope weakly, so it must live until the group ends.
        let (chainScope, unlink) = RequestScope.child(of: scope)
        defer {
            unlink()
            withExtendedLifetime(chainScope) {}
        }
        var options = CallOptions()
        options.scope = chainScope
        let total = steps
        let ended = Counter()
        observer.willStart?(total)
        do throws(SwitchyardError) {
            let value = try await body(client, options) { observer.progress?(ended.increment(), total) }
            observer.didFinish?(total, 0)
            return value
        } catch {
            observer.didFinish?(ended.value, 1)
            throw error
        }
    }

    /// Counts ended steps.
    final class Counter: Sendable {
        private let count = Mutex(0)
        func increment() -> Int {
            count.withLock {
                $0 += 1
                return $0
            }
        }
        var value: Int { count.withLock { $0 } }
    }
}

extension APIClient {
    /// Starts a chain with its first step (see ``CallChain``).
    public func chain<First: Sendable>(_ first: @escaping GroupCall<First>) -> CallChain<First> {
        CallChain(
            steps: 1,
            body: { client, options, stepEnded throws(SwitchyardError) in
                let value: First
                do {
                    value = try await first(client, options)
                } catch {
                    throw SwitchyardError.wrapping(error)
                }
                stepEnded()
                return value
            },
            client: self
        )
    }
}

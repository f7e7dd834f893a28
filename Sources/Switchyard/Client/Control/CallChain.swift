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
/// A chain can also be laid out at run time: after a step, ``repeating(_:)`` chooses the next call
/// from its value — or ends the chain with it — again and again (poll a job until it is done, follow
/// a sign-in flow the server steers):
///
/// ```swift
/// let export = try await client.chain { client, options in
///     try await client.send(StartExport(), options: options).value
/// }.repeating { job in
///     job.isDone ? nil : { client, options in try await client.send(GetExport(id: job.id), options: options).value }
/// }.run()
/// ```
///
/// Each step receives options carrying the chain's scope: releasing the scope passed to
/// ``run(scope:observer:)`` (or cancelling the calling task) cancels the step in flight and no later
/// step starts.
public struct CallChain<Value: Sendable>: Sendable {
    let steps: Int
    let body: @Sendable (APIClient, CallOptions, ChainSteps) async throws(SwitchyardError) -> Value
    let client: APIClient

    /// Adds a step built from the previous step's value.
    public func then<Next: Sendable>(_ step: @escaping @Sendable (Value, APIClient, CallOptions) async throws -> Next) -> CallChain<Next> {
        let body = self.body
        return CallChain<Next>(
            steps: steps + 1,
            body: { client, options, steps throws(SwitchyardError) in
                let value = try await body(client, options, steps)
                try Self.checkNotCancelled(options)
                let next: Next
                do {
                    next = try await step(value, client, options)
                } catch {
                    throw SwitchyardError.wrapping(error)
                }
                steps.ended()
                return next
            },
            client: client
        )
    }

    /// Adds steps chosen at run time: after the last step, `next` looks at its value and returns the
    /// call to make next — whose value it is then given in turn — or `nil` to end the chain with that
    /// value.
    ///
    /// The chain stops at the first failing call with its error, and between calls when its scope is
    /// released or the calling task is cancelled. Each chosen call counts as one step: it adds one to
    /// the total the observer's ``GroupObserver/progress`` reports (``GroupObserver/willStart`` counts
    /// only the steps known before the chain starts).
    ///
    /// ```swift
    /// let signedIn = try await client.chain { client, options in
    ///     try await client.send(SignIn(user: "ada"), options: options).value
    /// }.repeating { step in
    ///     switch step.next {
    ///     case .done: nil
    ///     case .oneTimeCode(let challenge):
    ///         { client, options in try await client.send(SendCode(challenge, code: await codes.ask()), options: options).value }
    ///     }
    /// }.run()
    /// ```
    ///
    /// - Parameter next: chooses the call after a value, or `nil` to end the chain.
    /// - Returns: the chain, whose value is that of the call `next` ended on.
    public func repeating(_ next: @escaping @Sendable (Value) -> GroupCall<Value>?) -> CallChain<Value> {
        let body = self.body
        return CallChain(
            steps: steps,
            body: { client, options, steps throws(SwitchyardError) in
                var value = try await body(client, options, steps)
                while let call = next(value) {
                    steps.added()
                    try Self.checkNotCancelled(options)
                    do {
                        value = try await call(client, options)
                    } catch {
                        throw SwitchyardError.wrapping(error)
                    }
                    steps.ended()
                }
                return value
            },
            client: client
        )
    }

    /// Throws ``SwitchyardError/Code/cancelled`` when the chain was cancelled since its last step.
    private static func checkNotCancelled(_ options: CallOptions) throws(SwitchyardError) {
        guard !Task.isCancelled, options.scope?.isCancelled != true else {
            throw SwitchyardError(code: .cancelled, message: "The chain was cancelled between steps.")
        }
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
        let counted = ChainSteps(total: steps, progress: observer.progress)
        observer.willStart?(steps)
        do throws(SwitchyardError) {
            let value = try await body(client, options, counted)
            observer.didFinish?(counted.count.ended, 0)
            return value
        } catch {
            observer.didFinish?(counted.count.ended, 1)
            throw error
        }
    }
}

/// Counts a run's steps — those known when it starts and those chosen as it goes — and the ended
/// ones, and reports each end to the observer.
final class ChainSteps: Sendable {
    private let counts: Mutex<(ended: Int, total: Int)>
    private let progress: (@Sendable (Int, Int) -> Void)?

    init(total: Int, progress: (@Sendable (Int, Int) -> Void)?) {
        counts = Mutex((0, total))
        self.progress = progress
    }

    /// The steps ended so far, out of how many are known.
    var count: (ended: Int, total: Int) { counts.withLock { $0 } }

    /// A step chosen at run time joins the total.
    func added() { counts.withLock { $0.total += 1 } }

    /// A step ended: the observer hears how many have, out of how many.
    func ended() {
        let now = counts.withLock { counts in
            counts.ended += 1
            return counts
        }
        progress?(now.ended, now.total)
    }
}

extension APIClient {
    /// Starts a chain with its first step (see ``CallChain``).
    public func chain<First: Sendable>(_ first: @escaping GroupCall<First>) -> CallChain<First> {
        CallChain(
            steps: 1,
            body: { client, options, steps throws(SwitchyardError) in
                let value: First
                do {
                    value = try await first(client, options)
                } catch {
                    throw SwitchyardError.wrapping(error)
                }
                steps.ended()
                return value
            },
            client: self
        )
    }
}

public import Foundation
public import Observation
public import Switchyard

/// The state of one resource on a screen — its ``value``, ``error``, ``isLoading`` and ``lastLoaded`` —
/// loaded through an `APIClient` and observable with the Observation framework (SwiftUI,
/// `withObservationTracking`).
///
/// ```swift
/// let profile = ResourceLoader(GetProfile(), client: client)
///
/// // SwiftUI: the view re-renders on each change.
/// //   .task { await profile.load() }
/// //   .refreshable { await profile.reload() }
/// await profile.load()
/// print(profile.phase, profile.value?.name ?? "-", profile.error?.message ?? "")
/// ```
///
/// **Loading.** ``load(isolation:)`` loads as the endpoint's cache policy says
/// (`CallOptions.cache(_:version:)`, or the service's `CacheStage` default): a fresh stored response may
/// answer without the network. With `CachePolicy.cacheThenNetwork` the loader shows the stored value
/// first — while ``isLoading`` stays true — and then the network's, through
/// `APIClient.sendCacheThenNetwork(_:options:)`; the stored value is shown first only while the
/// loader has no value of its own. ``reload(isolation:)`` is "pull to refresh": it asks the network
/// even when a stored response is fresh (it revalidates under `CachePolicy.standard`,
/// `CachePolicy.cacheElseNetwork(maxAge:)` and `CachePolicy.cacheThenNetwork`; other policies
/// already ask the network).
///
/// **New parameters.** A search or filter screen keeps one loader and loads it again with another
/// endpoint value: ``load(_:isolation:)`` cancels the load in flight, clears what the old parameters
/// showed and loads the new ones; its observers stay, and later loads and reloads load the new value.
///
/// ```swift
/// let results = ResourceLoader(Search(query: ""), client: client)
/// // SwiftUI: .task(id: query) { await results.load(Search(query: query)) }
/// await results.load(Search(query: "swift"))
/// ```
///
/// **One load at a time.** Concurrent ``load(isolation:)`` calls — two views appearing at once — share
/// the load in flight: one network call. A ``reload(isolation:)`` joins a reload in flight and replaces
/// a plain load (whose answer might be the stored one). The load belongs to the loader, not to the task
/// that asked: cancelling that task stops its wait but not the load, whose result still lands here (the
/// next screen shows it); ``cancel()`` stops it.
///
/// **What a failure keeps.** A failed load keeps the value shown (a stale value beats an empty screen),
/// sets ``error`` and the phase ``LoadPhase/failed``; the next success clears the error. A cancelled
/// load — by ``cancel()``, `client.cancel(.all)` or a sign-out — is not a failure: the loader goes back
/// to the phase it left.
///
/// **Threads.** Every property can be read from any thread or task. Each change is made on the actor of
/// the task that started the load — the main actor when an app calls ``load(isolation:)`` from its UI,
/// so SwiftUI and `withObservationTracking` see every change there — and anywhere when a server task
/// with no actor calls it. All properties change together, in one observed mutation.
public final class ResourceLoader<Output: Sendable>: Observable, Sendable {
    /// What observers see, changed as one.
    struct Snapshot: Sendable {
        var value: Output?
        var error: SwitchyardError?
        var phase = LoadPhase.idle
        var lastLoaded: Date?
        var source: ResponseSource?
    }

    /// A plain load joins anything in flight; a reload insists on the network.
    enum Kind: Sendable {
        case load
        case reload
    }

    private struct State: Sendable {
        var shown = Snapshot()
        var load: (generation: Int, kind: Kind, task: Task<Void, Never>)?
        var generation = 0
        /// What loads load: the endpoint the loader was made with, or the last one given to
        /// ``load(_:isolation:)``.
        var resource: ResourceSource<Output>
    }

    private let state: ObservedState<State>
    private let client: APIClient
    private let options: CallOptions?

    /// Creates a loader for `endpoint`; nothing loads until ``load(isolation:)`` or
    /// ``reload(isolation:)``.
    ///
    /// - Parameters:
    ///   - endpoint: the resource to load.
    ///   - client: the client that sends it.
    ///   - options: adjustments for every load, applied on top of the endpoint's own options (a cache
    ///     policy chosen here wins over the endpoint's).
    public init<E: Endpoint>(_ endpoint: E, client: APIClient, options: CallOptions? = nil) where E.Output == Output {
        self.state = ObservedState(State(resource: ResourceSource(endpoint, client: client, options: options)))
        self.client = client
        self.options = options
    }

    /// All of the state, as observers see it.
    var snapshot: Snapshot { state.read(self, \.snapshot) { $0.shown } }

    /// The value loaded last (from the network or a store); kept through reloads and failures.
    public var value: Output? { snapshot.value }
    /// The last load's failure; cleared by the next successful load.
    public var error: SwitchyardError? { snapshot.error }
    /// Where the loader stands: idle, loading, loaded or failed.
    public var phase: LoadPhase { snapshot.phase }
    /// Whether a load is in flight.
    public var isLoading: Bool { snapshot.phase == .loading }
    /// When the loader last received a value — the stored one or the network's; `nil` before the first.
    public var lastLoaded: Date? { snapshot.lastLoaded }
    /// Where ``value`` came from: the network, a store (`ResponseSource.memoryCache`,
    /// `ResponseSource.diskCache`), a revalidation — say, to mark a value shown from the cache.
    public var source: ResponseSource? { snapshot.source }

    /// Loads the resource as its cache policy says, or joins the load in flight; returns when that load
    /// has ended (its outcome is in the loader's properties).
    ///
    /// - Parameter isolation: the caller's actor, where the loader's changes are made; leave it out.
    public func load(isolation: isolated (any Actor)? = #isolation) async {
        await run(.load, isolation: isolation)
    }

    /// Loads `endpoint` — the same resource with new parameters, a search screen's new query — in
    /// place of the loader's endpoint, keeping the loader and its observers; returns when that load
    /// has ended.
    ///
    /// The load in flight, if any, is cancelled and its answer dropped, whatever its parameters. What
    /// the old parameters showed — value, error, ``lastLoaded``, ``source`` — is cleared in the same
    /// change that starts the new load (a value for other parameters is not a stale value of these),
    /// and the load then runs as ``load(isolation:)`` does, under `endpoint`'s cache policy and the
    /// options the loader was made with. Later loads and reloads load `endpoint`.
    ///
    /// - Parameters:
    ///   - endpoint: the resource to load from now on.
    ///   - isolation: the caller's actor, where the loader's changes are made; leave it out.
    public func load<E: Endpoint>(_ endpoint: E, isolation: isolated (any Actor)? = #isolation) async where E.Output == Output {
        await run(.load, replacing: ResourceSource(endpoint, client: client, options: options), isolation: isolation)
    }

    /// Loads the resource from the network even when a stored response is fresh (revalidating it),
    /// keeping the value shown meanwhile; joins a reload in flight and replaces a plain load.
    ///
    /// - Parameter isolation: the caller's actor, where the loader's changes are made; leave it out.
    public func reload(isolation: isolated (any Actor)? = #isolation) async {
        await run(.reload, isolation: isolation)
    }

    /// Stops the load in flight, if any: its network call is cancelled, its answer is dropped, and the
    /// loader goes back to the phase it left, keeping its value and error.
    ///
    /// Unlike a load's changes, this one is made on the caller's thread at once: call it from the
    /// actor that observes the loader (the main actor in an app).
    public func cancel() {
        guard state.withLock({ $0.load != nil }) else { return }
        let task = state.change(self, \.snapshot) { state -> Task<Void, Never>? in
            guard let load = state.load else { return nil }
            state.generation += 1
            state.load = nil
            state.shown.phase = Self.settledPhase(of: state.shown)
            return load.task
        }
        task?.cancel()
    }

    /// Starts a load of `kind` — of `source` in place of the loader's resource when one is given,
    /// which never joins the load in flight — or joins the load in flight it may share.
    private func run(_ kind: Kind, replacing source: ResourceSource<Output>? = nil, isolation: isolated (any Actor)?) async {
        if source == nil, let joined = state.withLock({ Self.joinable($0, kind) }) {
            await joined.value
            return
        }
        let (task, replaced) = state.change(self, \.snapshot) { state -> (Task<Void, Never>, Task<Void, Never>?) in
            // Another caller may have started a load since the check above.
            if source == nil, let joined = Self.joinable(state, kind) { return (joined, nil) }
            if let source {
                state.resource = source
                state.shown = Snapshot()
            }
            let replaced = state.load?.task
            state.generation += 1
            let generation = state.generation
            let hasValue = state.shown.value != nil
            let resource = state.resource
            state.shown.phase = .loading
            let task = Task {
                await self.perform(kind, resource: resource, generation: generation, hasValue: hasValue, isolation: isolation)
            }
            state.load = (generation, kind, task)
            return (task, replaced)
        }
        replaced?.cancel()
        await task.value
    }

    /// The load in flight a new `kind` of load shares, if any.
    private static func joinable(_ state: State, _ kind: Kind) -> Task<Void, Never>? {
        guard let load = state.load, kind == .load || load.kind == .reload else { return nil }
        return load.task
    }

    /// Runs one load on the caller's actor, applying each value as it arrives.
    private func perform(
        _ kind: Kind,
        resource: ResourceSource<Output>,
        generation: Int,
        hasValue: Bool,
        isolation: isolated (any Actor)?
    ) async {
        do {
            if let stream = resource.cacheThenNetwork(kind, hasValue: hasValue) {
                var settled = false
                for try await result in stream {
                    // The stored value comes first (while the load goes on), then the network's.
                    let isStored = !settled && [.memoryCache, .diskCache].contains(result.source)
                    apply(result, settles: !isStored, generation: generation)
                    settled = settled || !isStored
                }
                if !settled { end(generation, error: nil) }
            } else {
                apply(try await resource.send(kind), settles: true, generation: generation)
            }
        } catch {
            end(generation, error: SwitchyardError.wrapping(error))
        }
    }

    /// Shows a value; `settles` ends the load with it.
    private func apply(_ result: CallResult<Output>, settles: Bool, generation: Int) {
        guard state.withLock({ $0.generation == generation }) else { return }
        state.change(self, \.snapshot) { state in
            guard state.generation == generation else { return }
            state.shown.value = result.value
            state.shown.source = result.source
            state.shown.lastLoaded = Date()
            guard settles else { return }
            state.shown.error = nil
            state.shown.phase = .loaded
            state.load = nil
        }
    }

    /// Ends a load that produced no final value: failed with `error`, or cancelled (`nil`, or a
    /// `SwitchyardError.Code.cancelled` error), which keeps the phase the load left.
    private func end(_ generation: Int, error: SwitchyardError?) {
        guard state.withLock({ $0.generation == generation }) else { return }
        state.change(self, \.snapshot) { state in
            guard state.generation == generation else { return }
            state.load = nil
            if let error, error.code != .cancelled {
                state.shown.error = error
                state.shown.phase = .failed
            } else {
                state.shown.phase = Self.settledPhase(of: state.shown)
            }
        }
    }

    /// The phase a loader not loading is in: loaded with a value and no error, failed with an error,
    /// else idle.
    private static func settledPhase(of shown: Snapshot) -> LoadPhase {
        if shown.error != nil { return .failed }
        return shown.value != nil ? .loaded : .idle
    }
}

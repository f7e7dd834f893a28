public import Observation
public import Switchyard

/// Loads a paged list — page/size or cursor — and keeps the items so far: ``refresh(isolation:)``
/// starts over, ``loadMore(isolation:)`` appends the next page, ``hasMore`` says whether there is one.
/// Observable with the Observation framework (SwiftUI, `withObservationTracking`), and ``states()``
/// streams every change for code that prefers streams.
///
/// Concurrent ``loadMore(isolation:)`` calls share one load instead of loading the same page twice; a
/// ``refresh(isolation:)`` cancels a load in flight and its late answer is dropped. A failed load keeps
/// the items and position, records the error in the state, and throws it; a failed or cancelled refresh
/// goes back to the position the items were loaded to.
///
/// ```swift
/// let articles = Paginator<Article>(.page(size: 20)) { request in
///     let page = try await client.send(ListArticles(page: request.page!, size: request.size)).value
///     return .init(items: page.items, hasMore: page.hasMore)
/// }
/// try await articles.refresh()
/// try await articles.loadMore()
/// print(articles.items.count, articles.hasMore, articles.phase)
/// ```
///
/// Every property can be read from any thread or task. Each change is made on the actor of the task
/// that started the load — the main actor when an app calls ``refresh(isolation:)`` or
/// ``loadMore(isolation:)`` from its UI, so SwiftUI and `withObservationTracking` see every change
/// there — and anywhere when a server task with no actor calls them. The load belongs to the paginator:
/// cancelling the task that awaits it does not stop it (``cancel()`` does).
public final class Paginator<Item: Sendable>: Observable, Sendable {
    /// Where the list was before a refresh reset it, to go back to when the refresh fails.
    private struct Position: Sendable {
        var pagesLoaded: Int
        var cursor: String?
        var hasMore: Bool
    }

    /// How a load ended for those who wait on it: `nil` when a refresh or ``cancel()`` replaced it.
    private typealias Outcome = Result<Void, SwitchyardError>?

    private struct Load: Sendable {
        var generation: Int
        var task: Task<Outcome, Never>
        /// Set for a refresh: where to go back to.
        var restoring: Position?
    }

    private struct Control: Sendable {
        var state = State(items: [], hasMore: true, isLoading: false, pagesLoaded: 0, error: nil, phase: .idle)
        var nextCursor: String?
        var load: Load?
        var generation = 0
        var observers: [Int: AsyncStream<State>.Continuation] = [:]
        var nextObserver = 0

        /// Tells the stream observers, under the lock so that they see changes in order.
        func publish() {
            for observer in observers.values { observer.yield(state) }
        }
    }

    private let strategy: Strategy
    private let fetch: Fetch
    private let control = ObservedState(Control())

    /// Creates a paginator; nothing loads until ``refresh(isolation:)`` or ``loadMore(isolation:)``.
    public init(_ strategy: Strategy, fetch: @escaping Fetch) {
        self.strategy = strategy
        self.fetch = fetch
    }

    /// The current state: items, whether there are more, loading, pages loaded, error and phase.
    public var current: State { control.read(self, \.current) { $0.state } }
    /// The items loaded so far.
    public var items: [Item] { current.items }
    /// Whether another page can be loaded.
    public var hasMore: Bool { current.hasMore }
    /// Whether a load is in flight.
    public var isLoading: Bool { current.isLoading }
    /// The last load's failure, cleared by the next success.
    public var error: SwitchyardError? { current.error }
    /// Where the list stands: idle, loading, loaded or failed.
    public var phase: LoadPhase { current.phase }

    /// A stream of states: the current one first, then one per change, until the paginator is gone.
    public func states() -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self, bufferingPolicy: .bufferingNewest(16))
        let id = control.withLock { control in
            let id = control.nextObserver
            control.nextObserver += 1
            control.observers[id] = continuation
            continuation.yield(control.state)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.control.withLock { $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Starts over from the first page, dropping any load in flight; the items stay until the first
    /// page replaces them.
    ///
    /// - Parameter isolation: the caller's actor, where the paginator's changes are made; leave it
    ///   out.
    public func refresh(isolation: isolated (any Actor)? = #isolation) async throws(SwitchyardError) {
        let (task, replaced) = control.change(self, \.current) { control -> (Task<Outcome, Never>, Task<Outcome, Never>?) in
            let replaced = control.load
            // A refresh that replaces another goes back, on failure, to where the first one started.
            let position =
                replaced?.restoring
                ?? Position(pagesLoaded: control.state.pagesLoaded, cursor: control.nextCursor, hasMore: control.state.hasMore)
            control.nextCursor = nil
            control.state.pagesLoaded = 0
            control.state.hasMore = true
            return (start(&control, replacing: true, restoring: position, isolation: isolation), replaced?.task)
        }
        replaced?.cancel()
        try await Self.wait(for: task)
    }

    /// Loads the next page and appends it; does nothing when there is none. Joins a load already in
    /// flight.
    ///
    /// - Parameter isolation: the caller's actor, where the paginator's changes are made; leave it
    ///   out.
    public func loadMore(isolation: isolated (any Actor)? = #isolation) async throws(SwitchyardError) {
        let task: Task<Outcome, Never>?
        switch control.withLock({ Self.nextStep($0) }) {
        case .join(let load): task = load
        case .none: task = nil
        case .start:
            task = control.change(self, \.current) { control -> Task<Outcome, Never>? in
                // Another caller may have started a load since the check above.
                switch Self.nextStep(control) {
                case .join(let load): return load
                case .none: return nil
                case .start: return start(&control, replacing: control.state.pagesLoaded == 0, restoring: nil, isolation: isolation)
                }
            }
        }
        if let task { try await Self.wait(for: task) }
    }

    /// What a ``loadMore(isolation:)`` does: join the load in flight, nothing (no more pages), or start
    /// one.
    private enum Step: Sendable {
        case join(Task<Outcome, Never>)
        case none
        case start
    }

    private static func nextStep(_ control: Control) -> Step {
        if let load = control.load { return .join(load.task) }
        return control.state.hasMore ? .start : .none
    }

    /// Stops the load in flight, if any: its answer is dropped, and a refresh goes back to the position
    /// it started from. The items stay.
    ///
    /// Unlike a load's changes, this one is made on the caller's thread at once: call it from the
    /// actor that observes the paginator (the main actor in an app).
    public func cancel() {
        guard control.withLock({ $0.load != nil }) else { return }
        let task = control.change(self, \.current) { control -> Task<Outcome, Never>? in
            guard let load = control.load else { return nil }
            control.generation += 1
            control.load = nil
            if let position = load.restoring { restore(position, in: &control) }
            control.state.isLoading = false
            control.state.phase = Self.settledPhase(of: control.state)
            control.publish()
            return load.task
        }
        task?.cancel()
    }

    /// Starts loading the next page under the lock; returns the load's task.
    private func start(
        _ control: inout Control,
        replacing: Bool,
        restoring: Position?,
        isolation: (any Actor)?
    ) -> Task<Outcome, Never> {
        let request: PageRequest
        switch strategy {
        case .page(let first, let size): request = PageRequest(page: first + control.state.pagesLoaded, cursor: nil, size: size)
        case .cursor(let size): request = PageRequest(page: nil, cursor: control.nextCursor, size: size)
        }
        control.generation += 1
        let generation = control.generation
        let task = Task {
            await self.perform(request, replacing: replacing, generation: generation, isolation: isolation)
        }
        control.load = Load(generation: generation, task: task, restoring: restoring)
        control.state.isLoading = true
        control.state.phase = .loading
        control.publish()
        return task
    }

    /// Loads one page on the caller's actor and applies it, unless a refresh or ``cancel()`` came
    /// first.
    private func perform(_ request: PageRequest, replacing: Bool, generation: Int, isolation: isolated (any Actor)?) async -> Outcome {
        let outcome: Result<Page, SwitchyardError>
        do {
            outcome = .success(try await fetch(request))
        } catch {
            outcome = .failure(SwitchyardError.wrapping(error))
        }
        guard control.withLock({ $0.generation == generation }) else { return nil }
        return control.change(self, \.current) { control -> Outcome in
            guard control.generation == generation, let load = control.load else { return nil }
            control.load = nil
            control.state.isLoading = false
            defer { control.publish() }
            switch outcome {
            case .success(let page):
                control.state.items = replacing ? page.items : control.state.items + page.items
                control.state.pagesLoaded += 1
                control.nextCursor = page.nextCursor
                switch strategy {
                case .page(_, let size): control.state.hasMore = page.hasMore ?? (page.items.count >= size)
                case .cursor: control.state.hasMore = page.hasMore ?? (page.nextCursor != nil)
                }
                control.state.error = nil
                control.state.phase = .loaded
                return .success(())
            case .failure(let error):
                if let position = load.restoring { restore(position, in: &control) }
                // A cancelled load (client.cancel(.all), a sign-out) is not the list's failure.
                if error.code != .cancelled { control.state.error = error }
                control.state.phase = Self.settledPhase(of: control.state)
                return .failure(error)
            }
        }
    }

    private func restore(_ position: Position, in control: inout Control) {
        control.state.pagesLoaded = position.pagesLoaded
        control.nextCursor = position.cursor
        control.state.hasMore = position.hasMore
    }

    /// Waits for a load; throws its error, returns when it succeeded or was replaced.
    private static func wait(for task: Task<Outcome, Never>) async throws(SwitchyardError) {
        if case .failure(let error) = await task.value { throw error }
    }

    /// The phase of a list not loading: failed with an error, loaded once a page is in, else idle.
    private static func settledPhase(of state: State) -> LoadPhase {
        if state.error != nil { return .failed }
        return state.pagesLoaded > 0 ? .loaded : .idle
    }

    deinit {
        let observers = control.withLock { $0.observers.values }
        for observer in observers { observer.finish() }
    }
}

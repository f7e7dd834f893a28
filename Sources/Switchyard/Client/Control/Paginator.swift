/// Loads a paged list — page/size or cursor — and keeps the items so far: ``refresh()`` starts
/// over, ``loadMore()`` appends the next page, ``hasMore`` says whether there is one, and
/// ``states()`` streams every change for a UI.
///
/// Concurrent ``loadMore()`` calls share one load instead of loading the same page twice; a
/// ``refresh()`` cancels a load in flight and its late answer is dropped. A failed load keeps the
/// items and position, records the error in the state, and throws it.
///
/// ```swift
/// let articles = Paginator<Article>(.page(size: 20)) { request in
///     let page = try await client.send(ListArticles(page: request.page!, size: request.size)).value
///     return .init(items: page.items, hasMore: page.hasMore)
/// }
/// try await articles.refresh()
/// try await articles.loadMore()
/// ```
public actor Paginator<Item: Sendable> {
    /// How pages are addressed.
    public enum Strategy: Sendable, Hashable {
        /// Numbered pages from `first` (usually 1 or 0), `size` items each.
        case page(first: Int = 1, size: Int)
        /// Opaque cursors: the first load sends none, each page returns the next one.
        case cursor(size: Int)
    }

    /// What one load asks for.
    public struct PageRequest: Sendable, Hashable {
        /// The page number (page strategy).
        public let page: Int?
        /// The cursor (cursor strategy); `nil` for the first page.
        public let cursor: String?
        /// The page size.
        public let size: Int
    }

    /// What one load returns.
    public struct Page: Sendable {
        /// The page's items.
        public var items: [Item]
        /// Whether another page follows; for cursors, derived from `nextCursor` when `nil`.
        public var hasMore: Bool?
        /// The cursor of the next page (cursor strategy).
        public var nextCursor: String?

        /// Creates a page.
        public init(items: [Item], hasMore: Bool? = nil, nextCursor: String? = nil) {
            self.items = items
            self.hasMore = hasMore
            self.nextCursor = nextCursor
        }
    }

    /// A snapshot for a UI.
    public struct State: Sendable {
        /// The items so far.
        public var items: [Item]
        /// Whether another page can be loaded.
        public var hasMore: Bool
        /// Whether a load is in flight.
        public var isLoading: Bool
        /// How many pages have been loaded since the last refresh.
        public var pagesLoaded: Int
        /// The last load's failure, cleared by the next success.
        public var error: SwitchyardError?
    }

    /// Loads one page; what it throws is reported as a ``SwitchyardError`` (a foreign error is wrapped).
    public typealias Fetch = @Sendable (PageRequest) async throws -> Page

    private let strategy: Strategy
    private let fetch: Fetch
    private var state = State(items: [], hasMore: true, isLoading: false, pagesLoaded: 0, error: nil)
    private var nextCursor: String?
    private var load: (generation: Int, task: Task<Page, any Error>)?
    private var generation = 0
    private var observers: [Int: AsyncStream<State>.Continuation] = [:]
    private var nextObserver = 0

    /// Creates a paginator; nothing loads until ``refresh()`` or ``loadMore()``.
    public init(_ strategy: Strategy, fetch: @escaping Fetch) {
        self.strategy = strategy
        self.fetch = fetch
    }

    /// The items loaded so far.
    public var items: [Item] { state.items }
    /// Whether another page can be loaded.
    public var hasMore: Bool { state.hasMore }
    /// The current state.
    public var current: State { state }

    /// A stream of states: the current one first, then one per change, until the paginator is gone.
    public func states() -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self, bufferingPolicy: .bufferingNewest(16))
        let id = nextObserver
        nextObserver += 1
        observers[id] = continuation
        continuation.yield(state)
        continuation.onTermination = { [weak self] _ in Task { await self?.removeObserver(id) } }
        return stream
    }

    /// Starts over from the first page, dropping any load in flight.
    public func refresh() async throws(SwitchyardError) {
        load?.task.cancel()
        load = nil
        generation += 1
        let mine = generation
        let saved = (pagesLoaded: state.pagesLoaded, cursor: nextCursor, hasMore: state.hasMore)
        nextCursor = nil
        state.pagesLoaded = 0
        state.hasMore = true
        do {
            try await loadNext(replacing: true)
        } catch {
            // A failed refresh keeps the items and the position they were loaded to.
            if mine == generation { (state.pagesLoaded, nextCursor, state.hasMore) = saved }
            throw error
        }
    }

    /// Loads the next page and appends it; does nothing when there is none. Joins a load already in flight.
    public func loadMore() async throws(SwitchyardError) {
        if let load, load.generation == generation {
            _ = try await Self.value(of: load.task)
            return
        }
        guard state.hasMore else { return }
        try await loadNext(replacing: state.pagesLoaded == 0)
    }

    private func loadNext(replacing: Bool) async throws(SwitchyardError) {
        let request: PageRequest
        switch strategy {
        case .page(let first, let size): request = PageRequest(page: first + state.pagesLoaded, cursor: nil, size: size)
        case .cursor(let size): request = PageRequest(page: nil, cursor: nextCursor, size: size)
        }
        let mine = generation
        let fetch = self.fetch
        let task = Task { () async throws -> Page in try await fetch(request) }
        load = (mine, task)
        state.isLoading = true
        publish()
        let outcome: Result<Page, SwitchyardError>
        do throws(SwitchyardError) {
            outcome = .success(try await Self.value(of: task))
        } catch {
            outcome = .failure(error)
        }
        guard mine == generation else { return }  // a refresh replaced this load; its answer is stale
        load = nil
        state.isLoading = false
        switch outcome {
        case .success(let page):
            state.items = replacing ? page.items : state.items + page.items
            state.pagesLoaded += 1
            nextCursor = page.nextCursor
            switch strategy {
            case .page(_, let size): state.hasMore = page.hasMore ?? (page.items.count >= size)
            case .cursor: state.hasMore = page.hasMore ?? (page.nextCursor != nil)
            }
            state.error = nil
            publish()
        case .failure(let error):
            state.error = error
            publish()
            throw error
        }
    }

    private static func value(of task: Task<Page, any Error>) async throws(SwitchyardError) -> Page {
        do {
            return try await task.value
        } catch {
            throw SwitchyardError.wrapping(error)
        }
    }

    private func publish() {
        for observer in observers.values { observer.yield(state) }
    }

    private func removeObserver(_ id: Int) {
        observers[id] = nil
    }

    deinit {
        for observer in observers.values { observer.finish() }
    }
}

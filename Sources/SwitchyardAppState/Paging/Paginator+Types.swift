public import Switchyard

extension Paginator {
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

    /// A snapshot for a UI: everything a list screen shows, changed as one.
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
        /// Where the list stands: idle before its first page, loading, loaded, or failed.
        public var phase: LoadPhase
    }

    /// Loads one page; what it throws is reported as a `SwitchyardError` (a foreign error is wrapped).
    public typealias Fetch = @Sendable (PageRequest) async throws -> Page
}

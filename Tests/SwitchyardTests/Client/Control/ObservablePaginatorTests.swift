import Observation
import Switchyard
import SwitchyardAppState
import SwitchyardTesting
import Testing

@MainActor
@Suite("The paginator observed with withObservationTracking", .timeLimit(.minutes(1)))
struct ObservablePaginatorTests {
    /// A 25-item list, 10 a page; page N waits at gate N (1-based) when there is one.
    static func pager(gates: [Gate] = []) -> (Paginator<Int>, Locked<[Int]>) {
        let fetched = Locked<[Int]>([])
        let pager = Paginator<Int>(.page(size: 10)) { request in
            let page = request.page!
            let order = fetched.withLock { fetched in
                fetched.append(page)
                return fetched.count
            }
            if order <= gates.count { try await gates[order - 1].pass() }
            let start = (page - 1) * 10
            return .init(items: Array(start..<min(start + 10, 25)))
        }
        return (pager, fetched)
    }

    static func summary(_ pager: Paginator<Int>) -> String {
        "\(pager.phase) \(pager.items.count)\(pager.hasMore ? "+" : "")"
    }

    @Test("refresh and load-more: each transition seen by an observer, and by the stream of states")
    func transitions() async throws {
        let gates = [Gate(), Gate(), Gate()]
        let (pager, _) = Self.pager(gates: gates)
        let log = ObservationLog { Self.summary(pager) }
        var states = pager.states().makeAsyncIterator()
        for (index, gate) in gates.enumerated() {
            let load = Task { index == 0 ? try await pager.refresh() : try await pager.loadMore() }
            await log.wait(for: 2 * index + 2)
            gate.open()
            try await load.value
            await log.wait(for: 2 * index + 3)
        }
        #expect(log.values == ["idle 0+", "loading 0+", "loaded 10+", "loading 10+", "loaded 20+", "loading 20+", "loaded 25"])
        var streamed: [String] = []
        for _ in 0..<7 {
            guard let state = await states.next() else { break }
            streamed.append("\(state.phase) \(state.items.count)\(state.hasMore ? "+" : "")")
        }
        #expect(streamed == log.values)
    }

    @Test("cancelling a refresh keeps the items and goes back to where they were loaded to")
    func cancelledRefresh() async throws {
        let gates = [Gate(), Gate()]
        gates[0].open()
        let (pager, fetched) = Self.pager(gates: gates)
        try await pager.loadMore()
        let refresh = Task { try await pager.refresh() }
        await gates[1].arrivals(1)
        #expect(pager.isLoading && pager.current.pagesLoaded == 0)
        pager.cancel()
        try await refresh.value
        #expect(pager.phase == .loaded && pager.items == Array(0..<10) && pager.current.pagesLoaded == 1)
        try await pager.loadMore()
        #expect(fetched.withLock { $0 } == [1, 1, 2])
        #expect(pager.items == Array(0..<20))
    }

    @Test("a task with no actor can drive the paginator, as a server does")
    func fromAnyTask() async throws {
        let (pager, fetched) = Self.pager()
        try await Task.detached {
            try await pager.refresh()
            try await pager.loadMore()
        }.value
        #expect(pager.phase == .loaded && pager.items == Array(0..<20))
        #expect(fetched.withLock { $0 } == [1, 2])
    }
}

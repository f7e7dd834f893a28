import Dispatch
import Foundation
import Observation
import Switchyard
import SwitchyardAppState
import SwitchyardTesting
import Testing

@MainActor
@Suite("Resource loaders: transitions observed with withObservationTracking", .timeLimit(.minutes(1)))
struct ResourceLoaderTests {
    @Test("load: idle → loading → loaded, each change seen by an observer")
    func loadTransitions() async throws {
        let backend = CountingBackend(gates: 1)
        let loader = ResourceLoader(GetCount(), client: try backend.client())
        let log = ObservationLog { loader.summary }
        let load = Task { await loader.load() }
        await log.wait(for: 2)
        backend.gates[0].open()
        await load.value
        await log.wait(for: 3)
        #expect(log.values == ["idle -", "loading -", "loaded 1@network"])
        #expect(loader.lastLoaded != nil && loader.error == nil && !loader.isLoading)
    }

    @Test("a failed load: idle → loading → failed, with the error and no value")
    func failedTransitions() async throws {
        let client = try makeClient(transport: MockTransport(.status(.serviceUnavailable)))
        let loader = ResourceLoader(GetCount(), client: client)
        let log = ObservationLog { loader.phase }
        await loader.load()
        await log.wait(for: 3)
        #expect(log.values == [.idle, .loading, .failed])
        #expect(loader.error?.status?.code == 503)
        #expect(loader.value == nil && loader.lastLoaded == nil)
    }

    @Test("a failure after a success keeps the value; the next success clears the error")
    func failureKeepsValue() async throws {
        let transport = MockTransport(sequence: [.json(#"{"n":1}"#), .status(.badGateway), .json(#"{"n":3}"#)])
        let loader = ResourceLoader(GetCount(), client: try makeClient(transport: transport))
        await loader.load()
        await loader.reload()
        #expect(loader.phase == .failed && loader.value == Count(n: 1) && loader.error?.status?.code == 502)
        await loader.reload()
        #expect(loader.phase == .loaded && loader.value == Count(n: 3) && loader.error == nil)
    }

    @Test("cached-then-fresh: the stored value shows while the fresh one loads; reload keeps the value and fetches")
    func cachedThenFresh() async throws {
        let backend = CountingBackend(gates: 3)
        let client = try backend.client(cached: true)
        let endpoint = GetCount(policy: .cacheThenNetwork)
        backend.gates[0].open()
        _ = try await client.send(endpoint)  // an earlier screen stored n = 1

        let loader = ResourceLoader(endpoint, client: client)
        let log = ObservationLog { loader.summary }
        let load = Task { await loader.load() }
        await log.wait(for: 3)
        #expect(loader.isLoading)
        backend.gates[1].open()
        await load.value
        await log.wait(for: 4)
        #expect(log.values == ["idle -", "loading -", "loading 1@memory", "loaded 2@network"])

        let reload = Task { await loader.reload() }
        await log.wait(for: 5)
        backend.gates[2].open()
        await reload.value
        await log.wait(for: 6)
        #expect(log.values.suffix(2) == ["loading 2@network", "loaded 3@network"])
        #expect(backend.transport.requestCount == 3)
    }

    @Test("reload asks the network even when the stored response is fresh; load does not")
    func reloadRevalidates() async throws {
        let backend = CountingBackend(headerFields: [.cacheControl: "max-age=600", .eTag: "\"v\""])
        let loader = ResourceLoader(GetCount(policy: .standard), client: try backend.client(cached: true))
        await loader.load()
        await loader.load()
        #expect(loader.source == .memoryCache && backend.transport.requestCount == 1)
        await loader.reload()
        #expect(backend.transport.requestCount == 2)
        #expect(backend.transport.requests.last?.headerFields[.ifNoneMatch] == "\"v\"")
        #expect(loader.value == Count(n: 2))
    }

    @Test("two observers of one loader each see every transition")
    func twoObservers() async throws {
        let backend = CountingBackend(gates: 1)
        let loader = ResourceLoader(GetCount(), client: try backend.client())
        let phases = ObservationLog { loader.phase }
        let values = ObservationLog { "\(loader.isLoading) \(loader.value?.n ?? 0)" }
        let load = Task { await loader.load() }
        await phases.wait(for: 2)
        await values.wait(for: 2)
        backend.gates[0].open()
        await load.value
        await phases.wait(for: 3)
        await values.wait(for: 3)
        #expect(phases.values == [.idle, .loading, .loaded])
        #expect(values.values == ["false 0", "true 0", "false 1"])
    }

    @Test("concurrent load() calls share one network call, and each returns with the value")
    func concurrentLoadsCollapse() async throws {
        let backend = CountingBackend(gates: 1)
        let loader = ResourceLoader(GetCount(), client: try backend.client())
        let loads = (0..<6).map { _ in Task { await loader.load() } }
        await backend.gates[0].arrivals(1)
        backend.gates[0].open()
        for load in loads { await load.value }
        #expect(backend.transport.requestCount == 1)
        #expect(loader.value == Count(n: 1))
    }

    @Test("cancel(): the call is cancelled, its answer dropped, and the loader goes back to idle")
    func cancel() async throws {
        let backend = CountingBackend(gates: 1)
        let client = try backend.client()
        let loader = ResourceLoader(GetCount(), client: client)
        let log = ObservationLog { loader.phase }
        let load = Task { await loader.load() }
        await backend.gates[0].arrivals(1)
        loader.cancel()
        await load.value
        await log.wait(for: 3)
        #expect(log.values == [.idle, .loading, .idle])
        #expect(loader.value == nil && loader.error == nil)
        #expect(client.callsInFlight.isEmpty)
    }

    @Test("a task with no actor can drive a loader, as a server does")
    func fromAnyTask() async throws {
        let backend = CountingBackend()
        let loader = ResourceLoader(GetCount(), client: try backend.client())
        await Task.detached { await loader.load() }.value
        #expect(loader.phase == .loaded && loader.value == Count(n: 1))
    }

    @Test("changes are made on the actor that started the load")
    func changesOnCallersActor() async throws {
        let backend = CountingBackend()
        let loader = ResourceLoader(GetCount(policy: .cacheThenNetwork), client: try backend.client(cached: true))
        let screen = Screen()
        let changes = Locked<[Bool]>([])
        @Sendable func watch() {
            withObservationTracking {
                _ = loader.phase
            } onChange: {
                changes.withLock { $0.append(Screen.isCurrent) }
                watch()
            }
        }
        watch()
        await screen.show(loader)
        await screen.refresh(loader)
        let seen = changes.withLock { $0 }
        #expect(seen.count == 4)
        #expect(seen.allSatisfy { $0 })
    }
}

/// An actor that runs on a dispatch queue of its own, so a test can tell whether code runs on it.
actor Screen {
    private static let key = DispatchSpecificKey<Int>()
    private let executor = QueueExecutor(key: Screen.key)

    /// Whether the calling code runs on a screen's queue.
    nonisolated static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func show(_ loader: ResourceLoader<Count>) async { await loader.load() }
    func refresh(_ loader: ResourceLoader<Count>) async { await loader.reload() }
}

/// A serial executor over a dispatch queue marked with `key`.
final class QueueExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "switchyard.tests.screen")

    init(key: DispatchSpecificKey<Int>) {
        queue.setSpecific(key: key, value: 1)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

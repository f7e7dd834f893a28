import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAppState
import SwitchyardTesting
import Testing

/// `GET /count?q=…`: the counter under a search query, as a search screen loads it.
private struct SearchCount: Endpoint {
    typealias Output = Count
    let query: String
    var policy: CachePolicy?
    var service: ServiceID { .users }
    var method: HTTPRequest.Method { .get }
    var path: String { "/count" }
    var parameters: Parameters { ["q": .string(query)] }
    var options: CallOptions {
        var options = CallOptions()
        if let policy { options.cache(policy) }
        return options
    }
}

/// The `q` of each request the transport received, in order.
private func queries(_ transport: MockTransport) -> [String] {
    transport.requests.map { request in
        URLComponents(string: request.path)?.queryItems?.first { $0.name == "q" }?.value ?? "-"
    }
}

@MainActor
@Suite("Resource loaders with new parameters: one loader, its observers kept, the old load cancelled", .timeLimit(.minutes(1)))
struct LoaderParametersTests {
    @Test("load(_:) with new parameters: the same observers see the old value cleared and the new one; reload loads the new ones")
    func newParametersKeepObservers() async throws {
        let backend = CountingBackend(gates: 3)
        let loader = ResourceLoader(SearchCount(query: "a"), client: try backend.client())
        let log = ObservationLog { loader.summary }
        backend.gates[0].open()
        await loader.load()
        await log.wait(for: 3)

        let search = Task { await loader.load(SearchCount(query: "b")) }
        await log.wait(for: 4)
        backend.gates[1].open()
        await search.value
        await log.wait(for: 5)
        #expect(log.values == ["idle -", "loading -", "loaded 1@network", "loading -", "loaded 2@network"])

        backend.gates[2].open()
        await loader.reload()
        #expect(loader.value == Count(n: 3))
        #expect(queries(backend.transport) == ["a", "b", "b"])
    }

    @Test("the load in flight is cancelled and its answer dropped; a plain load() joins the new one")
    func previousLoadCancelled() async throws {
        let backend = CountingBackend(gates: 2)
        let client = try backend.client()
        let loader = ResourceLoader(SearchCount(query: "a"), client: client)
        let first = Task { await loader.load() }
        await backend.gates[0].arrivals(1)

        let second = Task { await loader.load(SearchCount(query: "b")) }
        await backend.gates[1].arrivals(1)
        await first.value  // the first load ended: cancelled, not answered
        #expect(loader.isLoading && loader.value == nil && loader.error == nil)
        #expect(client.callsInFlight.count == 1)
        let joining = Task { await loader.load() }

        backend.gates[0].open()  // too late: that call is gone
        backend.gates[1].open()
        await second.value
        await joining.value
        #expect(loader.phase == .loaded && loader.value == Count(n: 2))
        #expect(queries(backend.transport) == ["a", "b"])
        #expect(client.callsInFlight.isEmpty)
    }

    @Test("a failed load of new parameters keeps nothing of the old ones; the next reload retries the new ones")
    func failedNewParameters() async throws {
        let transport = MockTransport(sequence: [.json(#"{"n":1}"#), .status(.badGateway), .json(#"{"n":3}"#)])
        let loader = ResourceLoader(SearchCount(query: "a"), client: try makeClient(transport: transport))
        await loader.load()
        #expect(loader.value == Count(n: 1))

        await loader.load(SearchCount(query: "b"))
        #expect(loader.phase == .failed && loader.error?.status?.code == 502)
        #expect(loader.value == nil && loader.lastLoaded == nil && loader.source == nil)

        await loader.reload()
        #expect(loader.phase == .loaded && loader.value == Count(n: 3) && loader.error == nil)
        #expect(queries(transport) == ["a", "b", "b"])
    }

    @Test("cached-then-fresh with new parameters: their stored value shows first, then the network's")
    func cachedThenFreshNewParameters() async throws {
        let backend = CountingBackend(gates: 3)
        let client = try backend.client(cached: true)
        backend.gates[0].open()
        _ = try await client.send(SearchCount(query: "b", policy: .cacheThenNetwork))  // an earlier screen stored b: n = 1
        let loader = ResourceLoader(SearchCount(query: "a", policy: .cacheThenNetwork), client: client)
        backend.gates[1].open()
        await loader.load()
        #expect(loader.value == Count(n: 2))

        let log = ObservationLog { loader.summary }
        let search = Task { await loader.load(SearchCount(query: "b", policy: .cacheThenNetwork)) }
        await log.wait(for: 3)
        backend.gates[2].open()
        await search.value
        await log.wait(for: 4)
        #expect(log.values == ["loaded 2@network", "loading -", "loading 1@memory", "loaded 3@network"])
    }
}

import Foundation
import Switchyard
import SwitchyardAppState
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend

/// `swift run switchyard-screen`: drives a screen's state the way an app does — a resource loader
/// and an observable list against the embedded sample backend — observing them with
/// `withObservationTracking` and printing each transition.
@main
struct ScreenSample {
    static func main() async {
        do {
            try await run()
            print("\nDone.")
        } catch {
            print("\nThe sample failed: \(error)")
            exit(1)
        }
    }

    static func run() async throws {
        let backend = try await SampleBackend.start()
        print("Sample backend listening on \(backend.baseURL)")
        do {
            try await AsyncHTTPClientTransport.withTransport { transport in
                let client = try makeClient(backend: backend, transport: transport)
                // The screens run on the main actor, as in an app: the loaders make their changes there.
                await profileScreen(client, backend: backend)
                try await listScreen(client)
            }
        } catch {
            try? await backend.shutdown()
            throw error
        }
        try await backend.shutdown()
    }

    /// One service over the backend's request-control routes, with a memory cache.
    static func makeClient(backend: SampleBackend, transport: AsyncHTTPClientTransport) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try registry.register(
            Service(
                .control,
                baseURL: backend.baseURL,
                stages: [CacheStage(cache: try ResponseCache())],
                transport: transport
            )
        )
        return APIClient(registry: registry)
    }

    /// A resource loader whose endpoint says "cached, then fresh".
    @MainActor
    static func profileScreen(_ client: APIClient, backend: SampleBackend) async {
        print("\n== A resource loader: GET /counter/profile, cache then network")
        let profile = ResourceLoader(GetCounter(key: "profile"), client: client)
        let printer = TransitionPrinter("profile") { describe(profile) }
        await profile.load()
        print("  -- pull to refresh: the value stays while the fresh one loads")
        await profile.reload()
        printer.stop()

        print("\n== The same resource on a second screen: the stored value first, then the fresh one")
        let again = ResourceLoader(GetCounter(key: "profile"), client: client)
        let second = TransitionPrinter("profile, again") { describe(again) }
        // Two views asking at the same time share one load (tasks made here run on the main actor).
        let views = [Task { await again.load() }, Task { await again.load() }]
        for view in views { await view.value }
        second.stop()
        print("  -- the backend answered /counter/profile \(backend.hits("counter/profile")) times in all")

        print("\n== A resource whose server is down")
        let down = ResourceLoader(GetUnavailable(), client: client)
        let failing = TransitionPrinter("status") { describe(down) }
        await down.load()
        failing.stop()
    }

    /// An observable list, refreshed and then loaded page by page to its end.
    @MainActor
    static func listScreen(_ client: APIClient) async throws {
        print("\n== An observable list: GET /pages/numbers, 15 a page")
        let numbers = Paginator<Int>(.page(size: 15)) { request in
            let page = try await client.send(ListNumbers(page: request.page!, size: request.size)).value
            return .init(items: page.items, hasMore: page.hasMore)
        }
        let printer = TransitionPrinter("numbers") {
            let items = numbers.items
            let range = items.isEmpty ? "no items" : "\(items.count) items (\(items.first!)…\(items.last!))"
            return "\(numbers.phase), \(range)\(numbers.hasMore ? ", more to load" : ", the end")"
        }
        try await numbers.refresh()
        while numbers.hasMore { try await numbers.loadMore() }
        printer.stop()
    }

    /// `loading, showing 3 hits (from memory)`.
    static func describe(_ loader: ResourceLoader<Counter>) -> String {
        var text = "\(loader.phase)"
        if let value = loader.value {
            text += ", showing \(value.hits) hit\(value.hits == 1 ? "" : "s") (\(loader.source?.description ?? "?"))"
        }
        if let error = loader.error { text += ", error: \(error.code) \(error.status?.code ?? 0)" }
        return text
    }
}

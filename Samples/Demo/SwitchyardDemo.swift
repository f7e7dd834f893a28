import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCrypto
import SwitchyardInspector
import SwitchyardSampleBackend

/// `swift run switchyard-demo`: starts the embedded sample backend, registers its modules with
/// different pipelines, and makes discrete, intensive and streamed calls, printing a transcript.
/// `--inspect` starts the live inspector page too (see ``DemoInspection``).
@main
struct SwitchyardDemo {
    static func main() async {
        do {
            try await run()
            print("\nDone.")
        } catch {
            print("\nThe demo failed: \(error)")
            exit(1)
        }
    }

    static func run() async throws {
        let backend = try await SampleBackend.start()
        print("Sample backend listening on \(backend.baseURL)\n")
        do {
            try await AsyncHTTPClientTransport.withTransport { transport in
                try await tour(backend: backend, transport: transport)
            }
        } catch {
            try? await backend.shutdown()
            throw error
        }
        try await backend.shutdown()
    }

    static func tour(backend: SampleBackend, transport: AsyncHTTPClientTransport) async throws {
        // One registry for the app; the environment choice lives in memory for the demo.
        let registry = ServiceRegistry(
            configuration: .init(
                isReleaseBuild: false,
                defaultEnvironment: .develop,
                store: InMemoryEnvironmentStore()
            )
        )
        let inspection = try await DemoInspection.start(
            registry: registry,
            arguments: CommandLine.arguments,
            environment: ProcessInfo.processInfo.environment
        )

        // Modules 1, 3, 4 and 5 — users (a bearer token, a client-version header, envelope code 0),
        // vault (every body encrypted with AES-256-GCM; the envelope registered before the encryption,
        // so on the way out it sees plaintext), shop (every built-in stage in the documented order,
        // with its token service) and control (retries): the pipelines of SampleModules, which the
        // replay tests share, with the demo's transcript, telemetry and logging added (DemoPipelines).
        try SampleModules.register(
            in: registry,
            backend: backend,
            transport: transport,
            onTokenRefresh: { print("      ↻ the token expired; refreshing it (once, for every call that was refused)") },
            adjust: { inspection.adjust(DemoPipelines.adjust($0)) }
        )

        // Module 2 — catalog, generated from Catalog.switchyard.yaml by the build plugin: its
        // registration helper adds the described retries and envelope (code 100) inside our stages —
        // the transcript first (it sees the call as the app made it and the final outcome), then
        // common query parameters. The sample backend's port replaces the described develop URL. In
        // the demo environment its calls are answered from the described examples (demo mode).
        try CatalogAPI.registerCatalog(
            in: registry,
            transport: ExampleTransport(CatalogAPI.catalogExamples, live: transport),
            outerStages: inspection.stages([
                TranscriptStage(),
                CommonParametersStage([.fixed("app", "demo"), .dynamic("rid") { context in .string("\(context.requestID)") }]),
            ]),
            baseURLs: [.develop: backend.baseURL + "/catalog-api", .demo: "https://demo.invalid/catalog"]
        )

        // Module 6 — files: uploads and downloads with a progress accessory (see TransferTour).
        try TransferTour.register(in: registry, backend: backend, transport: transport, inspection: inspection)

        // Module 7 — assistant: streamed calls, Server-Sent Events and JSON Lines (see AssistantTour).
        try AssistantTour.register(in: registry, backend: backend, transport: transport, inspection: inspection)

        // Module 9 — quotes: a WebSocket channel through the module's stages (see ChannelTour).
        try ChannelTour.register(in: registry, backend: backend, transport: transport)

        print("Pipelines (registration order in, reverse order out):")
        for id in registry.serviceIDs { print("  " + (try registry.pipeline(for: id)).description) }
        print("Environment: \(registry.environment)\n")

        let client = APIClient(registry: registry)

        print("1. Discrete calls — GetUser(id: 1) and GetUser(id: 3), payloads with nulls and non-ASCII text:")
        for id in [1, 3] {
            let user = try await client.send(GetUser(id: id))
            let profile = user.value.profile
            print(
                "   \(user.value.name): nickname \(user.value.nickname ?? "null"), bio \(profile?.bio ?? "null"), tags \(profile?.tags.map { $0 ?? "null" } ?? [])"
            )
            print("   request \(user.requestID), status \(user.status.code), attempts \(user.attempts), from \(user.source)")
        }
        print()

        print("2. Discrete POST — CreateUser, parameters sent as a JSON body:")
        let created = try await client.send(CreateUser(name: "Ada Byron"))
        print("   created #\(created.value.id) \(created.value.name), status \(created.status.code)\n")

        print("3. Generated endpoints (Catalog.switchyard.yaml) — the paged article list, pages 1 and 2, and one article:")
        for page in 1...2 {
            let result = try await client.send(ListArticles(page: page))
            let titles = result.value.items.map { $0.title + ($0.summary == nil ? " (no summary)" : "") }
            print(
                "   page \(result.value.page)/\((result.value.total + 4) / 5): \(titles.joined(separator: ", ")); more: \(result.value.hasMore)"
            )
        }
        let article = try await client.send(GetArticle(id: 3))
        print("   article #\(article.value.id): \(article.value.title), summary \(article.value.summary ?? "null")")
        print(
            "   and the intensive style on the same service: \(try await client.send(.catalog, .get, "/articles/{id}", pathParameters: ["id": "4"], as: Article.self).value.title)"
        )
        print()

        print("4. A business error — GetUser(id: 99) — becomes a typed error:")
        await expectFailure { _ = try await client.send(GetUser(id: 99)) }

        print("5. Per-call stage switches — GetSession with and without the Authorization stage:")
        let session = try await client.send(GetSession())
        print("   with token: user \(session.value.user), expires in \(session.value.expiresIn) s")
        await expectFailure { _ = try await client.send(GetSession(), options: CallOptions(skippedStages: [.authorization])) }

        print("6. Failures a person can read:")
        await expectFailure {
            _ = try await client.send(
                .users,
                .get,
                "\(backend.baseURL)/not-json",
                options: CallOptions(skippedStages: [.envelope]),
                as: User.self
            )
        }
        await expectFailure {
            _ = try await client.send(.catalog, .get, "\(backend.baseURL)/delay/2000", options: CallOptions(timeout: .milliseconds(200)))
        }
        await expectFailure { _ = try await client.send(ServiceID("payments"), .get, "/balance") }

        print("7. The encrypted vault module — ciphertext on the wire, decoded entities in the app:")
        let note = try await client.send(CreateNote(text: "the combination is 4-8-15-16-23-42"))
        print(
            "   created note #\(note.value.id): \"\(note.value.text)\" (\(note.value.length ?? 0) characters, pinned \(note.value.pinned.map(String.init) ?? "null"))"
        )
        let stored = try await client.send(.vault, .get, "/notes/{id}", pathParameters: ["id": "3"], as: Note.self)
        print("   note #\(stored.value.id): \(stored.value.text)\n")

        print("8. Switching the environment at run time:")
        try registry.switchEnvironment(to: .release)
        print("   \(registry.environment): users → \(try registry.baseURL(for: .users))")
        try registry.switchEnvironment(to: .develop)
        print("   \(registry.environment): users → \(try registry.baseURL(for: .users))")
        // One module on its own: the vault moves, the users module stays; the same client serves both.
        try registry.switchEnvironment(to: .release, for: .vault)
        print("   vault alone on \(registry.environment(for: .vault)): vault → \(try registry.baseURL(for: .vault)),")
        print("   users still on \(registry.environment(for: .users)): users → \(try registry.baseURL(for: .users))")
        try registry.switchEnvironment(to: nil, for: .vault)
        // Demo mode for one module: the catalog answers from its described examples, the rest stays live.
        try registry.switchEnvironment(to: .demo, for: .catalog)
        let example = try await client.send(GetArticle(id: 3))
        print(
            "   catalog alone on \(registry.environment(for: .catalog)): answered from its described examples (source: \(example.source)) — \(example.value.title)"
        )
        try registry.switchEnvironment(to: nil, for: .catalog)

        print("\n9. The shop module — every built-in stage; a ~115 KB order with a terminal progress accessory:")
        let lines: [Parameters] = (0..<2400).map { index in ["sku": .string("SKU-\(index)"), "quantity": 1, "gift_note": .null] }
        let order = try await client.send(
            .shop,
            .post,
            "/orders",
            parameters: ["lines": .array(lines.map(ParameterValue.object))],
            as: ShopOrder.self
        )
        print(
            "   order #\(order.value.id) \(order.value.status); coupon \(order.value.coupon ?? "none (null stripped)"); the shop saw app=\(order.value.received["app"] ?? "?")\n"
        )

        print("10. The token expires; three concurrent calls share one refresh and are replayed:")
        backend.expireShopToken()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 1...3 {
                group.addTask {
                    _ = try await client.send(.shop, .get, "/orders/{id}", pathParameters: ["id": "\(id)"], as: ShopOrder.self)
                }
            }
            try await group.waitForAll()
        }
        print("   refreshes on the backend: \(backend.shopTokenRefreshes)\n")

        print("11. A request check refuses an invalid order before anything is sent:")
        await expectFailure { _ = try await client.send(.shop, .post, "/orders", parameters: ["lines": [["sku": "A-1", "quantity": 0]]]) }
        print("12. Request control — a flaky endpoint retried, identical calls coalesced, a tag cancelled:")
        let flaky = try await client.send(.control, .get, "/flaky/demo/2")
        print("   /flaky answered \(flaky.status.code) after \(flaky.attempts) attempts (two 503s retried with backoff)")
        var coalescing = CallOptions()
        coalescing.sameRequest = .coalesce
        let shared = coalescing
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask { _ = try await client.send(.control, .get, "/counter/demo", parameters: ["delay": 100], options: shared) }
            }
            try await group.waitForAll()
        }
        print("   10 identical calls, coalesced: the backend counted \(backend.hits("counter/demo")) hit")
        let slow = Task { try await client.send(.control, .get, "/delay/5000", options: CallOptions(tags: ["feed"])) }
        while client.callsInFlight.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        print("   cancelled by tag 'feed': \(client.cancel(.tag("feed")).count) call")
        await expectFailure { _ = try await slow.value }
        print("13. Files — a streamed multipart upload and a resumed, checksummed download, with progress:")
        try await TransferTour.run(client: client)
        print("14. A streamed module — an answer word by word as Server-Sent Events, resumed after a dropped connection:")
        try await AssistantTour.run(client: client)
        print("15. Orders placed offline — a durable outbox that drains them through the pipeline when the backend returns:")
        try await OutboxTour.run(transport: transport)
        print("16. A live channel — quotes over a WebSocket opened through the module's pipeline:")
        try await ChannelTour.run(client: client)
        print("The sample backend served \(backend.requestCount) requests.")
        await inspection.finish()
    }

    /// Runs a call that is expected to fail and prints the typed error.
    static func expectFailure(_ call: () async throws -> Void) async {
        do {
            try await call()
            print("   unexpectedly succeeded\n")
        } catch let error as SwitchyardError {
            print("   SwitchyardError \(error.code): \(error.message)")
            print(
                "   service \(error.serviceID?.rawValue ?? "-"), endpoint \(error.endpoint ?? "-"), stage \(error.stage?.rawValue ?? "-"), request \(error.requestID.map(String.init(describing:)) ?? "-")\n"
            )
        } catch {
            print("   unexpected error type: \(error)\n")
        }
    }
}

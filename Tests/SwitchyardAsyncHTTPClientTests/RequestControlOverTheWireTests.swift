import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAppState
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend
import SwitchyardTesting
import Synchronization
import Testing

/// Retry, deadlines, coalescing and paging against the sample backend's control routes.
@Suite("Request control against the sample backend")
struct RequestControlOverTheWireTests {
    static let control: ServiceID = "control"

    final class Delays: Sendable {
        let recorded = Mutex<[Duration]>([])
    }

    static func client(_ backend: SampleBackend, stages: [any Stage] = []) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(Service(control, baseURL: backend.baseURL, stages: stages, transport: AsyncHTTPClientTransport()))
        return APIClient(registry: registry)
    }

    @Test("a flaky endpoint: retried exactly until it answers, with backoff and Retry-After honoured; POST is not retried")
    func flaky() async throws {
        let backend = try await SampleBackend.start()
        let delays = Delays()
        let retry = RetryStage(RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(20), jitter: 0)) { delay in
            delays.recorded.withLock { $0.append(delay) }
            try await Task.sleep(for: delay)
        }
        let client = try Self.client(backend, stages: [retry])
        let result = try await client.send(Self.control, .get, "/flaky/{key}/3", pathParameters: ["key": "a"])
        #expect(result.status == .ok)
        #expect(result.attempts == 4)
        #expect(backend.hits("flaky/a") == 4)
        #expect(delays.recorded.withLock { $0 } == [.milliseconds(20), .milliseconds(40), .milliseconds(80)])

        _ = try await client.send(Self.control, .get, "/flaky/b/1?retryAfter=1")
        #expect(delays.recorded.withLock { $0 }.last == .seconds(1))

        do {
            _ = try await client.send(Self.control, .post, "/flaky/c/2")
            Issue.record("expected the 503")
        } catch {
            #expect(error.code == .httpStatus)
            #expect(error.status == .serviceUnavailable)
        }
        #expect(backend.hits("flaky/c") == 1)

        // Too many failures: attempts stop at the maximum with the server's status.
        await #expect(throws: SwitchyardError.self) { try await client.send(Self.control, .get, "/flaky/d/9") }
        #expect(backend.hits("flaky/d") == 5)
        try await backend.shutdown()
    }

    @Test("a slow endpoint: the per-attempt timeout and the overall deadline end the call with timeout")
    func slow() async throws {
        let backend = try await SampleBackend.start()
        let client = try Self.client(backend, stages: [RetryStage(RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(10), jitter: 0))])
        do {
            _ = try await client.send(
                Self.control,
                .get,
                "/delay/3000",
                options: CallOptions(timeout: .milliseconds(100), deadline: .milliseconds(450))
            )
            Issue.record("expected a timeout")
        } catch {
            #expect(error.code == .timeout)
        }
        #expect(client.callsInFlight.isEmpty)
        try await backend.shutdown()
    }

    @Test("20 identical calls coalesce into one network call; page 1 and page 2 are never confused")
    func coalesceAndPages() async throws {
        let backend = try await SampleBackend.start()
        let client = try Self.client(backend)
        var coalescing = CallOptions()
        coalescing.sameRequest = .coalesce
        let options = coalescing
        struct Hits: Decodable, Sendable { let hits: Int }
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await client.send(
                        Self.control,
                        .get,
                        "/counter/same",
                        parameters: ["delay": 200, "ts": .int(index)],
                        options: options,
                        as: Hits.self
                    ).value.hits
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: 1, count: 20))
        #expect(backend.hits("counter/same") == 1)

        struct Page: Decodable, Sendable {
            let page: Int
            let items: [Int]
            let hasMore: Bool
        }
        async let first = client.send(
            Self.control,
            .get,
            "/pages/list",
            parameters: ["page": 1, "size": 20, "delay": 100],
            options: options,
            as: Page.self
        )
        async let second = client.send(
            Self.control,
            .get,
            "/pages/list",
            parameters: ["page": 2, "size": 20, "delay": 100],
            options: options,
            as: Page.self
        )
        let (one, two) = try await (first, second)
        #expect(one.value.items == Array(1...20))
        #expect(two.value.items == Array(21...40))
        #expect(backend.hits("pages/list") == 2)

        let pager = Paginator<Int>(.page(size: 20)) { request in
            let page = try await client.send(
                Self.control,
                .get,
                "/pages/feed",
                parameters: ["page": .int(request.page!), "size": .int(request.size)],
                as: Page.self
            ).value
            return Paginator<Int>.Page(items: page.items, hasMore: page.hasMore)
        }
        try await pager.refresh()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { try await pager.loadMore() } }
            try await group.waitForAll()
        }
        try await pager.loadMore()
        #expect(pager.items == Array(1...45))
        #expect(!pager.hasMore)
        #expect(backend.hits("pages/feed") == 3)
        try await backend.shutdown()
    }
}

import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAppState
import SwitchyardTesting
import Synchronization
import Testing

@Suite("Batch, chain and paginator")
struct BatchChainPaginatorTests {
    /// Echoes the path after a random delay of up to 30 ms; `/fail/…` paths fail.
    static let randomLatency = MockTransport { request, _ in
        try await Task.sleep(for: .milliseconds(Int.random(in: 0...30)))
        if request.path.hasPrefix("/fail") { return Response(status: .internalServerError, body: Data("boom".utf8)) }
        return Response(status: .ok, headerFields: [.contentType: "text/plain"], body: Data(request.path.utf8))
    }

    @Test("a batch returns results in input order under random latencies, collecting every failure")
    func batchOrder() async throws {
        let client = try makeClient(transport: Self.randomLatency)
        let paths = (0..<40).map { $0 % 13 == 5 ? "/fail/\($0)" : "/item/\($0)" }
        let progress = Locked<[Int]>([])
        let finished = Locked<(Int, Int)?>(nil)
        let calls: [GroupCall<String>] = paths.map { path in
            { client, options in String(decoding: try await client.send(.users, .get, path, options: options).value.bytes, as: UTF8.self) }
        }
        let observer = GroupObserver(
            progress: { done, _ in progress.withLock { $0.append(done) } },
            didFinish: { ok, failed in finished.withLock { $0 = (ok, failed) } }
        )
        let results = await client.batch(calls, observer: observer)
        #expect(results.count == 40)
        for (index, result) in results.enumerated() {
            if paths[index].hasPrefix("/fail") {
                #expect((try? result.get()) == nil)
            } else {
                #expect((try? result.get()) == paths[index])
            }
        }
        #expect(progress.withLock { $0 } == Array(1...40))
        #expect(finished.withLock { $0 }.map { [$0.0, $0.1] } == [37, 3])
    }

    @Test("fail-fast cancels the rest; cancelling the batch's scope cancels every call")
    func failFastAndCancel() async throws {
        let client = try makeClient(
            transport: MockTransport { request, _ in
                if request.path == "/fail" { return Response(status: .internalServerError) }
                try await Task.sleep(for: .seconds(5))
                return Response(status: .ok)
            }
        )
        let calls: [GroupCall<Int>] = ["/slow", "/fail", "/slow"].map { path in
            { client, options in try await client.send(.users, .get, path, options: options).status.code }
        }
        let results = await client.batch(calls, mode: .failFast)
        #expect(results.map { (try? $0.get()) == nil } == [true, true, true])
        if case .failure(let error) = results[0] { #expect(error.code == .cancelled) }
        if case .failure(let error) = results[1] { #expect(error.code == .httpStatus) }

        let scope = RequestScope()
        let slowCalls: [GroupCall<Int>] = [calls[0], calls[2]]
        async let cancelled = client.batch(slowCalls, scope: scope)
        try await Task.sleep(for: .milliseconds(50))
        scope.cancelAll()
        #expect(await cancelled.allSatisfy { if case .failure(let error) = $0 { error.code == .cancelled } else { false } })
        #expect(client.callsInFlight.isEmpty)
    }

    @Test("a chain builds each call from the previous value and stops at the first failure with its error")
    func chain() async throws {
        let client = try makeClient(transport: Self.randomLatency)
        let steps = Locked<[Int]>([])
        let observer = GroupObserver(progress: { done, _ in steps.withLock { $0.append(done) } })
        let value = try await client.chain { client, options in
            String(decoding: try await client.send(.users, .get, "/login", options: options).value.bytes, as: UTF8.self)
        }.then { token, client, options in
            String(decoding: try await client.send(.users, .get, "/profile\(token)", options: options).value.bytes, as: UTF8.self)
        }.run(observer: observer)
        #expect(value == "/profile/login")
        #expect(steps.withLock { $0 } == [1, 2])

        let third = Locked(false)
        do {
            _ = try await client.chain { client, options in
                try await client.send(.users, .get, "/fail/login", options: options).status.code
            }.then { _, client, options in
                third.withLock { $0 = true }
                return try await client.send(.users, .get, "/never", options: options).status.code
            }.run()
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == .httpStatus)
            #expect(error.status == .internalServerError)
        }
        #expect(!third.withLock { $0 })
    }

    @Test("cancelling a chain's scope cancels the step in flight and no later step starts")
    func cancelChain() async throws {
        let client = try makeClient(
            transport: MockTransport { _, _ in
                try await Task.sleep(for: .seconds(5))
                return Response(status: .ok)
            }
        )
        let scope = RequestScope()
        let later = Locked(false)
        let chain = client.chain { client, options in
            try await client.send(.users, .get, "/slow", options: options).status.code
        }.then { _, client, options in
            later.withLock { $0 = true }
            return try await client.send(.users, .get, "/never", options: options).status.code
        }
        let run = Task { () async -> SwitchyardError.Code? in
            do throws(SwitchyardError) {
                _ = try await chain.run(scope: scope)
                return nil
            } catch { return error.code }
        }
        for _ in 0..<2500 where client.callsInFlight.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
        scope.cancelAll()
        #expect(await run.value == .cancelled)
        #expect(!later.withLock { $0 })
        #expect(client.callsInFlight.isEmpty)
    }

    @Test("paginator: refresh, load more, has more, concurrent load-more loads once, states stream")
    func paginator() async throws {
        let fetches = Locked<[Int]>([])
        let pager = Paginator<Int>(.page(size: 10)) { request in
            fetches.withLock { $0.append(request.page!) }
            try? await Task.sleep(for: .milliseconds(20))
            let start = (request.page! - 1) * 10
            return .init(items: Array(start..<min(start + 10, 25)))
        }
        var states = pager.states().makeAsyncIterator()
        #expect(await states.next()?.items.isEmpty == true)
        try await pager.refresh()
        #expect(pager.items == Array(0..<10))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<5 { group.addTask { try? await pager.loadMore() } }
        }
        #expect(fetches.withLock { $0 } == [1, 2])
        #expect(pager.items == Array(0..<20))
        #expect(pager.hasMore)
        try await pager.loadMore()
        #expect(pager.items == Array(0..<25))
        #expect(!pager.hasMore)
        try await pager.loadMore()
        #expect(fetches.withLock { $0 } == [1, 2, 3])
        try await pager.refresh()
        #expect(pager.items == Array(0..<10))
        #expect(pager.current.pagesLoaded == 1)
        var sawLoading = false
        while let state = await states.next() {
            if state.isLoading { sawLoading = true }
            if !state.isLoading, state.pagesLoaded == 1, state.items.count == 10, sawLoading { break }
        }
        #expect(sawLoading)
    }

    @Test("cursor paginator and a failed load that keeps the items")
    func cursorAndFailure() async throws {
        let failNext = Locked(false)
        let pager = Paginator<String>(.cursor(size: 2)) { request in
            if failNext.withLock({ $0 }) { throw SwitchyardError(code: .transport, message: "offline") }
            switch request.cursor {
            case nil: return .init(items: ["a", "b"], nextCursor: "c2")
            case "c2": return .init(items: ["c"], nextCursor: nil)
            default: throw SwitchyardError(code: .invalidRequest, message: "bad cursor")
            }
        }
        try await pager.loadMore()
        failNext.withLock { $0 = true }
        await #expect(throws: SwitchyardError.self) { try await pager.loadMore() }
        #expect(pager.items == ["a", "b"])
        #expect(pager.current.error?.code == .transport)
        failNext.withLock { $0 = false }
        try await pager.loadMore()
        #expect(pager.items == ["a", "b", "c"])
        #expect(!pager.hasMore)
    }
}

import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Synchronization
import Testing

@Suite("Cancellation, scopes and same-request policies")
struct RequestControlTests {
    /// A transport that answers after `delay`, honouring cancellation.
    static func slow(_ delay: Duration = .seconds(5)) -> MockTransport {
        MockTransport(.delayed(by: delay, then: .json(#"{"id":1,"name":"Ada"}"#)))
    }

    static func waitUntil(_ condition: @Sendable () -> Bool) async {
        for _ in 0..<5000 where !condition() { try? await Task.sleep(for: .milliseconds(2)) }
    }

    @Test("cancel by id, tag, service, first and last: each cancelled call ends with cancelled, the others go on")
    func cancelBySelectors() async throws {
        // The transport holds every call until the test opens the gate (or the call is cancelled).
        let gate = Locked(false)
        let client = try makeClient(transport: gatedTransport(gate))
        let tagged = RequestTag("feed")
        let results = Locked<[String: SwitchyardError.Code]>([:])
        await withTaskGroup(of: Void.self) { group in
            for name in ["a", "b", "c", "d", "e"] {
                group.addTask {
                    let options = CallOptions(tags: name == "c" ? [tagged] : [])
                    do throws(SwitchyardError) {
                        _ = try await client.send(.users, .get, "/\(name)", options: options)
                        results.withLock { $0[name] = SwitchyardError.Code("ok") }
                    } catch {
                        results.withLock { $0[name] = error.code }
                    }
                }
                await Self.waitUntil { client.callsInFlight.count >= ["a", "b", "c", "d", "e"].firstIndex(of: name)! + 1 }
            }
            let ids = client.callsInFlight
            #expect(ids.count == 5)
            #expect(client.cancel(.oldest) == [ids[0]])
            #expect(client.cancel(.newest) == [ids[4]])
            #expect(client.cancel(.id(ids[1])) == [ids[1]])
            #expect(client.cancel(.tag(tagged)) == [ids[2]])
            #expect(client.cancel(.id(ids[1])).isEmpty)
            gate.withLock { $0 = true }
        }
        let codes = results.withLock { $0 }
        #expect(codes["a"] == .cancelled && codes["b"] == .cancelled && codes["c"] == .cancelled && codes["e"] == .cancelled)
        #expect(codes["d"] == SwitchyardError.Code("ok"))
        #expect(client.callsInFlight.isEmpty)
        let all = try makeClient(transport: Self.slow())
        async let one: Void = { _ = try? await all.send(.users, .get, "/x") }()
        await Self.waitUntil { all.callsInFlight.count == 1 }
        #expect(all.cancel(.service(.users)).count == 1)
        await one
        #expect(all.callsInFlight.isEmpty)
    }

    @Test("releasing a scope cancels its calls; the pipeline does not keep the scope alive")
    func scope() async throws {
        let client = try makeClient(transport: Self.slow())
        weak var released: RequestScope?
        var scope: RequestScope? = RequestScope()
        released = scope
        var scoped = CallOptions()
        scoped.scope = scope
        let options = scoped
        let call = Task { () async -> SwitchyardError.Code? in
            do throws(SwitchyardError) {
                _ = try await client.send(.users, .get, "/a", options: options)
                return nil
            } catch { return error.code }
        }
        await Self.waitUntil { client.callsInFlight.count == 1 }
        #expect(scope?.inFlightCount == 1)
        scope = nil
        #expect(released == nil)
        #expect(await call.value == .cancelled)
        #expect(client.callsInFlight.isEmpty)
        #expect(options.scope == nil)
    }

    @Test("coalesce: 20 identical calls make one network call and all get its result; volatile parameters do not split them")
    func coalesce() async throws {
        let transport = Self.slow(.milliseconds(100))
        let client = try makeClient(transport: transport)
        var coalescing = CallOptions()
        coalescing.sameRequest = .coalesce
        let options = coalescing
        let results = await withTaskGroup(of: CallResult<User>?.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try? await client.send(.users, .get, "/users/1", parameters: ["ts": .int(index)], options: options, as: User.self)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(transport.requests.count == 1)
        #expect(results.allSatisfy { $0?.value == User(id: 1, name: "Ada") })
        #expect(results.filter { $0?.source == .network }.count == 1)
        #expect(results.filter { $0?.source == .shared }.count == 19)
        // Different parameters are different requests.
        async let page1 = client.send(.users, .get, "/list", parameters: ["page": 1], options: options)
        async let page2 = client.send(.users, .get, "/list", parameters: ["page": 2], options: options)
        _ = try await (page1, page2)
        #expect(transport.requests.count == 3)
    }

    @Test("a coalesced follower can be cancelled alone; the shared call goes on for the others")
    func coalescedCancellation() async throws {
        let gate = Locked(false)
        let transport = gatedTransport(gate)
        let client = try makeClient(transport: transport)
        var coalescing = CallOptions()
        coalescing.sameRequest = .coalesce
        let options = coalescing
        let leader = Task { try await client.send(.users, .get, "/a", options: options) }
        await Self.waitUntil { client.callsInFlight.count == 1 }
        let follower = Task { () async -> SwitchyardError.Code? in
            do throws(SwitchyardError) {
                _ = try await client.send(.users, .get, "/a", options: options)
                return nil
            } catch { return error.code }
        }
        await Self.waitUntil { client.callsInFlight.count == 2 }
        follower.cancel()
        #expect(await follower.value == .cancelled)
        gate.withLock { $0 = true }
        #expect(try await leader.value.status == .ok)
        #expect(transport.requests.count == 1)
    }

    @Test("a call that arrives just after the last waiter of an identical call left starts afresh instead of sharing its cancellation")
    func abandonedFlightIsNotJoined() async throws {
        let gate = Locked(false)
        let transport = gatedTransport(gate)
        let client = try makeClient(transport: transport)
        var coalescing = CallOptions()
        coalescing.sameRequest = .coalesce
        let options = coalescing
        let first = Task { () async -> SwitchyardError.Code? in
            do throws(SwitchyardError) {
                _ = try await client.send(.users, .get, "/a", options: options)
                return nil
            } catch { return error.code }
        }
        await Self.waitUntil { client.callsInFlight.count == 1 }
        client.cancel(.all)
        let second = Task { try await client.send(.users, .get, "/a", options: options) }
        #expect(await first.value == .cancelled)
        gate.withLock { $0 = true }
        #expect(try await second.value.status == .ok)
    }

    @Test("calls that differ in header fields or deadline never share a response")
    func identityIncludesHowItAsks() async throws {
        let transport = Self.slow(.milliseconds(100))
        let client = try makeClient(transport: transport)
        func options(_ user: String) -> CallOptions {
            var options = CallOptions(headerFields: [HTTPField.Name("X-User")!: user])
            options.sameRequest = .coalesce
            return options
        }
        async let ada = client.send(.users, .get, "/me", options: options("ada"))
        async let lin = client.send(.users, .get, "/me", options: options("lin"))
        _ = try await (ada, lin)
        #expect(transport.requests.count == 2)
    }

    @Test("cancel previous and refuse new")
    func otherPolicies() async throws {
        let transport = Self.slow(.milliseconds(200))
        let client = try makeClient(transport: transport)
        var cancelling = CallOptions()
        cancelling.sameRequest = .cancelPrevious
        let previous = cancelling
        let first = Task { () async -> SwitchyardError.Code? in
            do throws(SwitchyardError) {
                _ = try await client.send(.users, .get, "/search", parameters: ["q": "a"], options: previous)
                return nil
            } catch { return error.code }
        }
        await Self.waitUntil { client.callsInFlight.count == 1 }
        let second = try await client.send(.users, .get, "/search", parameters: ["q": "a"], options: previous)
        #expect(await first.value == .cancelled)
        #expect(second.status == .ok)

        var refusing = CallOptions()
        refusing.sameRequest = .refuseNew
        let refuse = refusing
        let running = Task { try await client.send(.users, .post, "/pay", parameters: ["amount": 5], options: refuse) }
        await Self.waitUntil { client.callsInFlight.count == 1 }
        do {
            _ = try await client.send(.users, .post, "/pay", parameters: ["amount": 5], options: refuse)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.code == .refused)
        }
        #expect(try await running.value.status == .ok)
        _ = try await client.send(.users, .post, "/pay", parameters: ["amount": 5], options: refuse)
    }

    @Test("stress: 10,000 concurrent calls with random cancellations by id, tag and scope each end exactly once")
    func stress() async throws {
        let active = Locked(0)
        let transport = MockTransport { _, _ in
            active.withLock { $0 += 1 }
            defer { active.withLock { $0 -= 1 } }
            // In flight for a random while, without timers (10,000 of them would starve other suites).
            for _ in 0..<Int.random(in: 0...20) {
                await Task.yield()
                try Task.checkCancellation()
            }
            return Response(status: .ok, body: Data("{}".utf8))
        }
        let client = try makeClient(transport: transport)
        let scopes = (0..<10).map { _ in RequestScope() }
        let tags = (0..<10).map { RequestTag("t\($0)") }
        let ended = Locked<(ok: Int, cancelled: Int, other: Int, ids: Set<Int>)>((0, 0, 0, []))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<10_000 {
                var scoped = CallOptions(tags: [tags[index % 10]])
                scoped.scope = scopes[index % 10]
                let options = scoped
                group.addTask {
                    let code: SwitchyardError.Code?
                    do throws(SwitchyardError) {
                        _ = try await client.send(.users, .get, "/s/\(index)", options: options)
                        code = nil
                    } catch {
                        code = error.code
                    }
                    ended.withLock { state in
                        let (inserted, _) = state.ids.insert(index)
                        precondition(inserted, "call \(index) ended twice")
                        switch code {
                        case nil: state.ok += 1
                        case .cancelled?: state.cancelled += 1
                        default: state.other += 1
                        }
                    }
                }
                if index % 500 == 250 {
                    group.addTask {
                        switch Int.random(in: 0..<3) {
                        case 0: if let id = client.callsInFlight.randomElement() { client.cancel(.id(id)) }
                        case 1: client.cancel(.tag(tags.randomElement()!))
                        default: scopes.randomElement()!.cancelAll()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let totals = ended.withLock { $0 }
        #expect(totals.ids.count == 10_000)
        #expect(totals.ok + totals.cancelled == 10_000)
        #expect(totals.other == 0)
        #expect(totals.cancelled > 0)
        #expect(client.callsInFlight.isEmpty)
        #expect(scopes.allSatisfy { $0.inFlightCount == 0 })
        // Every pipeline run has ended too: cancelled ones were cancelled, not left running.
        await Self.waitUntil { active.withLock { $0 } == 0 }
        #expect(active.withLock { $0 } == 0)
    }
}

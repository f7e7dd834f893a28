import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// A stage of the app's own with an option declared the way the built-in stages declare theirs.
private struct AuditStage: RequestStage {
    enum Reason: CallOptionKey {
        typealias Value = String
        static let name = "auditReason(_:)"
        static let stage: StageID = "Audit"
    }

    var id: StageID { Reason.stage }

    func prepare(_ request: inout Request, context: CallContext) async throws {
        request.headerFields[HTTPField.Name("X-Audit")!] = context[Reason.self] ?? "none"
    }
}

/// Options as typed keys: one store that merges by each key's rule, reads back, requires its stage
/// and separates calls when the key says so.
@Suite("Stage options as typed keys")
struct CallOptionKeyTests {
    private static func coalescing(_ configure: (inout CallOptions) -> Void = { _ in }) -> CallOptions {
        var options = CallOptions()
        options.sameRequest = .coalesce
        configure(&options)
        return options
    }

    @Test("an option of the app's own stage reaches the stage and reads back from the options")
    func ownOption() async throws {
        let transport = MockTransport { request, _ in
            Response(status: .ok, body: Data((request.headerFields[HTTPField.Name("X-Audit")!] ?? "").utf8))
        }
        let client = try makeClient(stages: [AuditStage()], transport: transport)
        var options = CallOptions()
        options[option: AuditStage.Reason.self] = "export"
        #expect(options[option: AuditStage.Reason.self] == "export")
        let response = try await client.send(.users, .get, "/a", options: options)
        #expect(response.value.bodyText == "export")
    }

    @Test("an option whose stage the service lacks fails the call naming the stage and the option")
    func missingStage() async throws {
        let transport = MockTransport(.json("{}"))
        let client = try makeClient(transport: transport)
        var options = CallOptions()
        options[option: AuditStage.Reason.self] = "export"
        await #expect {
            _ = try await client.send(.users, .get, "/a", options: options)
        } throws: { error in
            guard let error = error as? SwitchyardError else { return false }
            return error.code == .invalidRequest && error.message.contains("Audit") && error.message.contains("auditReason(_:)")
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("omitted names merge by union: the endpoint's and the call's both stay out")
    func unionMerge() {
        var endpoint = CallOptions()
        endpoint.omitHeaders([.acceptLanguage])
        var call = CallOptions()
        call.omitHeaders([.userAgent])
        #expect(endpoint.applying(call)[option: HeadersStage.OmittedNames.self] == [.acceptLanguage, .userAgent])
        var retries = CallOptions()
        retries.retry(maxAttempts: 2)
        var more = CallOptions()
        more.retry(maxAttempts: 5)
        #expect(retries.applying(more)[option: RetryStage.MaxAttempts.self] == 5)
        var invalidates = CallOptions()
        invalidates.invalidateCache(onSuccess: [(service: .users, endpoint: nil)])
        var instead = CallOptions()
        instead.invalidateCache(onSuccess: [(service: .catalog, endpoint: "list")])
        let targets = invalidates.applying(instead)[option: CacheStage.Invalidation.self] ?? []
        #expect(targets.map(\.service) == [.catalog] && targets.map(\.endpoint) == ["list"])
    }

    @Test("a value set with setContextValue under an option's key still wins over the option store")
    func contextValueWins() async throws {
        let transport = MockTransport { request, _ in
            Response(status: .ok, body: Data((request.headerFields[HTTPField.Name("X-Audit")!] ?? "").utf8))
        }
        let client = try makeClient(stages: [AuditStage()], transport: transport)
        var options = CallOptions()
        options[option: AuditStage.Reason.self] = "export"
        options.setContextValue("override", for: AuditStage.Reason.self)
        #expect(try await client.send(.users, .get, "/a", options: options).value.bodyText == "override")
    }

    @Test("identical calls that differ in an option that changes the request never share a response")
    func separatingOption() async throws {
        let gate = Locked(false)
        let transport = gatedTransport(gate)
        let stages: [any Stage] = [HeadersStage([.fixed(.acceptLanguage, "zh-Hans")])]
        let client = try makeClient(stages: stages, transport: transport)
        async let plain = client.send(.users, .get, "/me", options: Self.coalescing())
        async let omitted = client.send(.users, .get, "/me", options: Self.coalescing { $0.omitHeaders([.acceptLanguage]) })
        // Wait (boundedly) for both to reach the transport; joined, only one would.
        for _ in 0..<1_000 where transport.requests.count < 2 { try await Task.sleep(for: .milliseconds(2)) }
        gate.withLock { $0 = true }
        let results = try await [plain, omitted]
        #expect(results.allSatisfy { $0.source == .network })
        #expect(transport.requests.map { $0.headerFields[.acceptLanguage] }.sorted { ($0 ?? "") < ($1 ?? "") } == [nil, "zh-Hans"])
    }

    @Test("identical calls that differ only in an option that does not change the answer share one")
    func nonSeparatingOption() async throws {
        let gate = Locked(false)
        let transport = gatedTransport(gate)
        let client = try makeClient(stages: [LoggingStage(logger: CallContext.disabledLogger)], transport: transport)
        async let quiet = client.send(.users, .get, "/me", options: Self.coalescing { $0.logLevel(.debug) })
        while transport.requests.count < 1 { try await Task.sleep(for: .milliseconds(2)) }
        async let loud = client.send(.users, .get, "/me", options: Self.coalescing { $0.logLevel(.trace) })
        try await Task.sleep(for: .milliseconds(50))
        gate.withLock { $0 = true }
        let results = try await [quiet, loud]
        #expect(transport.requests.count == 1)
        #expect(results.map(\.source).sorted { "\($0)" < "\($1)" } == [.network, .shared])
    }
}

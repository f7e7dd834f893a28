import Logging
import Testing

@testable import Switchyard

/// The options the client itself honours (account, same-request policy, progress, scope …), kept in
/// the typed store beside the stages' options: they read back, merge by their key's rule, separate
/// calls where their key says so, and need no stage.
@Suite("Client options in the typed store")
struct ClientOptionKeyTests {
    /// An option of the client's kind that no field lists: what the store alone must carry.
    private enum Probe: ClientOptionKey {
        typealias Value = [Int]
        static let name = "probe"
        static func merge(_ earlier: [Int], _ later: [Int]) -> [Int] { earlier + later }
        static func identity(_ value: [Int]) -> String? { value.map(String.init).joined(separator: ",") }
    }

    /// Options with `change` applied to empty ones.
    private static func options(_ change: (inout CallOptions) -> Void) -> CallOptions {
        var options = CallOptions()
        change(&options)
        return options
    }

    @Test("each moved option reads back what was set")
    func readsBack() {
        let scope = RequestScope()
        var logger = Logger(label: "probe")
        logger.logLevel = .critical
        let options = Self.options {
            $0.acceptableStatusCodes = 200...204
            $0.logger = logger
            $0.allowsForeignOrigin = true
            $0.account = "user-42"
            $0.sameRequest = .coalesce
            $0.uploadProgress = { _ in }
            $0.downloadProgress = { _ in }
            $0.recordsStageTimings = true
            $0.keepsRawBody = false
            $0.scope = scope
        }
        #expect(options.acceptableStatusCodes == 200...204)
        #expect(options.logger?.label == "probe" && options.logger?.logLevel == .critical)
        #expect(options.allowsForeignOrigin)
        #expect(options.account == "user-42")
        #expect(options.sameRequest == .coalesce)
        #expect(options.uploadProgress != nil && options.downloadProgress != nil)
        #expect(options.recordsStageTimings)
        #expect(options.keepsRawBody == false)
        #expect(options.scope === scope)
        #expect(options.namesScope && !options.scopeWasReleased)
    }

    @Test("unset, the moved options read back their defaults")
    func defaults() {
        let options = CallOptions()
        #expect(options.acceptableStatusCodes == nil && options.logger == nil && options.account == nil)
        #expect(options.sameRequest == nil && options.keepsRawBody == nil && options.scope == nil)
        #expect(options.uploadProgress == nil && options.downloadProgress == nil)
        #expect(!options.allowsForeignOrigin && !options.recordsStageTimings && !options.namesScope && !options.scopeWasReleased)
    }

    @Test("setting nil or false removes an option: the options adjust nothing again")
    func clearingRemoves() {
        let cleared = Self.options {
            $0.account = "user-42"
            $0.allowsForeignOrigin = true
            $0.recordsStageTimings = true
            $0.account = nil
            $0.allowsForeignOrigin = false
            $0.recordsStageTimings = false
        }
        #expect(cleared.isEmpty)
    }

    @Test("a scope released since it was set reads back as released, not as none")
    func releasedScope() {
        var options = CallOptions()
        do {
            let scope = RequestScope()
            options.scope = scope
        }
        #expect(options.scope == nil)
        #expect(options.namesScope && options.scopeWasReleased)
    }

    @Test("the call's value wins over the endpoint's, and the endpoint's stays when the call sets none")
    func laterWins() {
        let first = RequestScope()
        let second = RequestScope()
        let endpoint = Self.options {
            $0.acceptableStatusCodes = 200...299
            $0.logger = Logger(label: "endpoint")
            $0.account = "endpoint"
            $0.sameRequest = .coalesce
            $0.keepsRawBody = true
            $0.scope = first
        }
        let call = Self.options {
            $0.acceptableStatusCodes = 200...201
            $0.logger = Logger(label: "call")
            $0.account = "call"
            $0.sameRequest = .allow
            $0.keepsRawBody = false
            $0.scope = second
        }
        let merged = endpoint.applying(call)
        #expect(merged.acceptableStatusCodes == 200...201 && merged.logger?.label == "call" && merged.account == "call")
        #expect(merged.sameRequest == .allow && merged.keepsRawBody == false && merged.scope === second)
        let kept = endpoint.applying(CallOptions(timeout: .seconds(1)))
        #expect(kept.acceptableStatusCodes == 200...299 && kept.logger?.label == "endpoint" && kept.account == "endpoint")
        #expect(kept.sameRequest == .coalesce && kept.keepsRawBody == true && kept.scope === first)
    }

    @Test("foreign origin and stage timings are on when either side turns them on")
    func flagsJoin() {
        let on = Self.options {
            $0.allowsForeignOrigin = true
            $0.recordsStageTimings = true
        }
        let other = CallOptions(timeout: .seconds(1))
        for merged in [on.applying(other), other.applying(on), on.applying(on)] {
            #expect(merged.allowsForeignOrigin && merged.recordsStageTimings)
        }
        let off = CallOptions(timeout: .seconds(2)).applying(other)
        #expect(!off.allowsForeignOrigin && !off.recordsStageTimings)
    }

    @Test("an endpoint's and a call's progress blocks are both called, the endpoint's first")
    func progressBlocksBoth() {
        let calls = Locked<[String]>([])
        let endpoint = Self.options {
            $0.uploadProgress = { _ in calls.withLock { $0.append("endpoint up") } }
            $0.downloadProgress = { _ in calls.withLock { $0.append("endpoint down") } }
        }
        let call = Self.options {
            $0.uploadProgress = { _ in calls.withLock { $0.append("call up") } }
            $0.downloadProgress = { _ in calls.withLock { $0.append("call down") } }
        }
        let merged = endpoint.applying(call)
        let progress = TransferProgress(completed: 1, total: 2)
        merged.uploadProgress?(progress)
        merged.downloadProgress?(progress)
        #expect(calls.withLock { $0 } == ["endpoint up", "call up", "endpoint down", "call down"])
    }

    @Test("the account separates calls by its partition, never by its name; other client options do not")
    func identity() {
        let alice = Self.options { $0.account = "alice" }.optionIdentity
        let bob = Self.options { $0.account = "bob" }.optionIdentity
        #expect(alice != bob)
        #expect(alice == Self.options { $0.account = "alice" }.optionIdentity)
        #expect(!alice.contains("alice"))
        let others = Self.options {
            $0.acceptableStatusCodes = 200...201
            $0.logger = Logger(label: "call")
            $0.allowsForeignOrigin = true
            $0.sameRequest = .coalesce
            $0.uploadProgress = { _ in }
            $0.recordsStageTimings = true
            $0.keepsRawBody = true
        }
        #expect(others.optionIdentity.isEmpty)
    }

    @Test("a client option needs no stage: the call's stage check asks for none")
    func needsNoStage() {
        let options = Self.options {
            $0.account = "user-42"
            $0.sameRequest = .coalesce
            $0.logger = Logger(label: "call")
        }
        #expect(!options.selectsStages)
        #expect(options.requiredStages.isEmpty)
        #expect(options.allOptionStages { _ in false })
    }

    @Test("an option no field lists is seen by isEmpty, kept by applying and merged by its key's rule")
    func storeOnlyOption() {
        var endpoint = CallOptions()
        endpoint[option: Probe.self] = [1]
        var call = CallOptions()
        call[option: Probe.self] = [2]
        #expect(!endpoint.isEmpty)
        #expect(endpoint.applying(CallOptions())[option: Probe.self] == [1])
        #expect(CallOptions().applying(call)[option: Probe.self] == [2])
        #expect(endpoint.applying(call)[option: Probe.self] == [1, 2])
        #expect(endpoint.applying(call).optionIdentity == "client:probe=1,2")
        endpoint[option: Probe.self] = nil
        #expect(endpoint.isEmpty)
    }

    @Test("skipping or enabling different stages separates calls, as their own stages and deadline do; tags and timeouts do not")
    func stageChoicesSeparateCalls() {
        let plain = CallOptions().optionIdentity
        let skipping = Self.options { $0.skippedStages = [.nullStripping] }.optionIdentity
        let enabling = Self.options { $0.enable(.nullStripping) }.optionIdentity
        #expect(Set([plain, skipping, enabling]).count == 3)
        #expect(skipping == Self.options { $0.skippedStages = [.nullStripping] }.optionIdentity)
        #expect(Self.options { $0.deadline = .seconds(1) }.optionIdentity != Self.options { $0.deadline = .seconds(2) }.optionIdentity)
        let tagged = Self.options {
            $0.tags = ["a"]
            $0.timeout = .seconds(3)
        }
        #expect(tagged.optionIdentity == plain)
    }

    @Test("an emptied collection option is not stored: the options adjust nothing again")
    func emptiedCollections() {
        var options = CallOptions(tags: ["a"], headerFields: [.accept: "text/plain"], skippedStages: [.nullStripping])
        #expect(!options.isEmpty)
        options.tags = []
        options.headerFields = [:]
        options.skippedStages.remove(.nullStripping)
        #expect(options.isEmpty)
        #expect(options.optionIdentity.isEmpty)
    }
}

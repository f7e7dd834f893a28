import Foundation
import HTTPTypes
import Logging
import Testing

@testable import Switchyard

/// A value stored in a context by the tests below.
private enum Marker: CallContextKey {
    typealias Value = String
}

@Suite("Contexts and options are values: a change to one copy is never seen through another")
struct ValueSemanticsTests {
    @Test("every field a stage may change on its copy of the context leaves the caller's copy as it was")
    func contextCopies() {
        var original = CallContext(serviceID: ServiceID("users")!, endpointName: "GetUser", tags: ["a"])
        original[Marker.self] = "outer"
        let control = original.control
        var copy = original
        copy.endpointName = "Other"
        copy.tags.insert("b")
        copy.attempt += 1
        copy.environment = .custom
        copy.timeout = .seconds(3)
        copy.deadline = ContinuousClock.now + .seconds(5)
        copy.parameterEncoding = .json
        copy.skippedStages.insert(.logging)
        copy.enabledStages.insert(.cache)
        copy.logger.logLevel = .trace
        copy.isForeignOrigin = true
        copy.account = "someone"
        copy.credentialSources = [AuthorizationStage(provider: ClosureTokenProvider(current: { "t" }, refresh: { _ in "t" }))]
        copy.control = CallControl()
        copy[Marker.self] = "inner"

        #expect(original.endpointName == "GetUser")
        #expect(original.tags == ["a"])
        #expect(original.attempt == 1)
        #expect(original.environment == .release)
        #expect(original.timeout == nil)
        #expect(original.deadline == nil)
        #expect(original.parameterEncoding == .automatic)
        #expect(original.skippedStages.isEmpty && original.enabledStages.isEmpty)
        #expect(original.logger.logLevel == CallContext.disabledLogger.logLevel)
        #expect(!original.isForeignOrigin)
        #expect(original.account == nil)
        #expect(original.credentialSources.isEmpty)
        #expect(original.control === control)
        #expect(original[Marker.self] == "outer")
        #expect(copy[Marker.self] == "inner" && copy.attempt == 2 && copy.account == "someone")
    }

    @Test("a context changed while another copy exists does not change that copy, in either direction")
    func contextChangeAfterCopy() {
        var first = CallContext(serviceID: ServiceID("users")!)
        let second = first
        first.account = "first"
        var third = second
        third.account = "third"
        #expect(first.account == "first")
        #expect(second.account == nil)
        #expect(third.account == "third")
        #expect(second.nextAttempt().attempt == 2 && second.attempt == 1)
    }

    @Test("options that set nothing are all alike, and changing one changes no other")
    func emptyOptionsShareNothingVisible() {
        var changed = CallOptions()
        changed.account = "someone"
        changed.tags.insert("x")
        changed.skippedStages.insert(.logging)
        let fresh = CallOptions()
        #expect(fresh.account == nil && fresh.tags.isEmpty && fresh.skippedStages.isEmpty)
        #expect(fresh.isEmpty)
        #expect(!changed.isEmpty)
    }

    @Test("a copy of options changes apart from the options it was copied from")
    func optionsCopies() {
        var original = CallOptions(timeout: .seconds(1), tags: ["a"])
        original.headerFields[.accept] = "application/json"
        var copy = original
        copy.timeout = .seconds(9)
        copy.tags.insert("b")
        copy.headerFields[.accept] = "text/plain"
        copy.sameRequest = .coalesce
        copy.require(.retry, for: "retry(maxAttempts:)")
        #expect(original.timeout == .seconds(1))
        #expect(original.tags == ["a"])
        #expect(original.headerFields[.accept] == "application/json")
        #expect(original.sameRequest == nil)
        #expect(original.requiredStages.isEmpty)
        #expect(copy.requiredStages[.retry] == "retry(maxAttempts:)")
    }

    @Test("a value given to the options' initializer is kept, and one left out stays unset")
    func optionsInitializer() {
        let options = CallOptions(timeout: .seconds(2), deadline: .seconds(4), skippedStages: [.logging], acceptableStatusCodes: 200...204)
        #expect(options.timeout == .seconds(2))
        #expect(options.deadline == .seconds(4))
        #expect(options.skippedStages == [.logging])
        #expect(options.acceptableStatusCodes == 200...204)
        #expect(options.tags.isEmpty && options.enabledStages.isEmpty && options.logger == nil)
        #expect(!options.isEmpty)
    }

    @Test("a cached entry revalidated on a copy leaves the stored entry, its directives included, as it was")
    func cachedEntryCopies() {
        let key = CacheKey(serviceID: "users", endpoint: "profile", identity: "release\nGET\nexample.com\n/me\n", partition: .public)
        let stored = CachedResponse(
            key: key,
            status: 200,
            headerFields: [.cacheControl: "max-age=60"],
            body: Data("{}".utf8),
            storedAt: Date(timeIntervalSince1970: 1_000)
        )
        var revalidated = stored
        revalidated.headerFields = [.cacheControl: "max-age=600"]
        revalidated.storedAt = Date(timeIntervalSince1970: 2_000)
        revalidated.requestedAt = Date(timeIntervalSince1970: 1_999)
        #expect(stored.headerFields[.cacheControl] == "max-age=60")
        #expect(stored.directives.control.maxAge == 60)
        #expect(stored.storedAt == Date(timeIntervalSince1970: 1_000) && stored.requestedAt == stored.storedAt)
        #expect(revalidated.directives.control.maxAge == 600)
        #expect(revalidated != stored)
        #expect(revalidated.key == stored.key && revalidated.body == stored.body)
    }
}

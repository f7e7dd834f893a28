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
        var original = CallContext(serviceID: "users", endpointName: "GetUser", tags: ["a"])
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
        var first = CallContext(serviceID: "users")
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
        copy.retry(maxAttempts: 3)
        #expect(original.timeout == .seconds(1))
        #expect(original.tags == ["a"])
        #expect(original.headerFields[.accept] == "application/json")
        #expect(original.sameRequest == nil)
        #expect(original[option: RetryStage.MaxAttempts.self] == nil)
        #expect(copy[option: RetryStage.MaxAttempts.self] == 3)
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
        // What each serves follows its own fields: the head made once per entry is kept in step.
        #expect(revalidated.response(source: .memoryCache).headerFields == revalidated.headerFields)
        #expect(stored.response(source: .memoryCache).headerFields == stored.headerFields)
    }

    @Test("a cached entry serves its fields as changed in place, and its status with the phrase swift-http-types gives its code")
    func cachedEntryServesChangedFields() {
        var entry = CachedResponse(
            key: CacheKey(serviceID: "users", endpoint: "profile", identity: "release\nGET\nexample.com\n/me\n", partition: .public),
            status: 203,
            headerFields: [.cacheControl: "max-age=60"],
            body: Data("{}".utf8)
        )
        entry.headerFields[.eTag] = "\"v2\""
        let served = entry.response(source: .diskCache)
        #expect(served.headerFields[.eTag] == "\"v2\"" && served.headerFields[.cacheControl] == "max-age=60")
        #expect(served.status == .nonAuthoritativeInformation && served.status.reasonPhrase == HTTPResponse.Status(code: 203).reasonPhrase)
        #expect(served.source == .diskCache && served.bytes == Data("{}".utf8))
    }

    /// Options with a timeout and a tag, and whether ``CallOptions/writeValues(into:)`` writes anything.
    private static func writesValues(_ options: CallOptions) -> Bool {
        var context = CallContext(serviceID: "users")
        options.writeValues(into: &context)
        return context[Marker.self] != nil || context.transferObserver != nil
    }

    @Test("every field of an options copy changed leaves the options it was copied from as they were")
    func everyOptionsField() {
        let original = CallOptions(timeout: .seconds(1), tags: ["a"])
        let scope = RequestScope()
        var copy = original
        copy.timeout = .seconds(9)
        copy.deadline = .seconds(20)
        copy.tags.insert("b")
        copy.headerFields[.accept] = "text/plain"
        copy.additionalStages.append(HeadersStage([.fixed(.acceptLanguage, "en")]))
        copy.skippedStages.insert(.logging)
        copy.enable(.cache)
        copy.retry(maxAttempts: 3)
        copy.acceptableStatusCodes = 200...299
        copy.logger = CallContext.disabledLogger
        copy.allowsForeignOrigin = true
        copy.account = "someone"
        copy.sameRequest = .coalesce
        copy.uploadProgress = { _ in }
        copy.downloadProgress = { _ in }
        copy.cache(.cacheElseNetwork(maxAge: .seconds(60)))
        copy.recordsStageTimings = true
        copy.scope = scope
        copy.setContextValue("copy", for: Marker.self)

        #expect(original.timeout == .seconds(1) && original.deadline == nil && original.tags == ["a"])
        #expect(original.headerFields.isEmpty && original.additionalStages.isEmpty)
        #expect(original.skippedStages.isEmpty && original.enabledStages.isEmpty && original[option: RetryStage.MaxAttempts.self] == nil)
        #expect(original.acceptableStatusCodes == nil && original.logger == nil && !original.allowsForeignOrigin)
        #expect(original.account == nil && original.sameRequest == nil && original.cachePolicy == nil)
        #expect(original.uploadProgress == nil && original.downloadProgress == nil && !original.recordsStageTimings)
        #expect(original.scope == nil)
        #expect(!Self.writesValues(original))
        #expect(Self.writesValues(copy) && copy.scope === scope && copy.cachePolicy != nil)
    }

    @Test("merging options leaves both sides as they were, also when both sides are one value")
    func applyingKeepsInputs() {
        var endpoint = CallOptions(timeout: .seconds(1), tags: ["endpoint"])
        endpoint.account = "endpoint-account"
        var call = CallOptions(tags: ["call"])
        call.skippedStages = [.logging]
        let merged = endpoint.applying(call)
        let doubled = endpoint.applying(endpoint)
        #expect(merged.tags == ["endpoint", "call"] && merged.skippedStages == [.logging] && merged.account == "endpoint-account")
        #expect(endpoint.tags == ["endpoint"] && endpoint.skippedStages.isEmpty)
        #expect(call.tags == ["call"] && call.account == nil && call.timeout == nil)
        #expect(doubled.tags == ["endpoint"] && doubled.account == "endpoint-account")
    }

    @Test("options made with values do not change the options made without any")
    func initializerLeavesEmptyAlone() {
        _ = CallOptions(timeout: .seconds(5), tags: ["x"], skippedStages: [.logging], logger: CallContext.disabledLogger)
        let fresh = CallOptions()
        #expect(fresh.isEmpty && fresh.timeout == nil && fresh.tags.isEmpty && fresh.skippedStages.isEmpty && fresh.logger == nil)
    }

    @Test("two cached entries built apart from the same parts are equal")
    func cachedEntriesEqual() {
        func make() -> CachedResponse {
            CachedResponse(
                key: CacheKey(serviceID: "users", endpoint: "profile", identity: "release\nGET\nexample.com\n/me\n", partition: .public),
                status: 200,
                headerFields: [.cacheControl: "max-age=60"],
                body: Data("{}".utf8),
                storedAt: Date(timeIntervalSince1970: 1_000),
                varyingFields: ["accept": "application/json"]
            )
        }
        #expect(make() == make())
        var changed = make()
        changed.headerFields[.eTag] = "\"v2\""
        #expect(changed != make())
        #expect(changed.etag == "\"v2\"" && changed.directives.control.maxAge == 60)
    }
}

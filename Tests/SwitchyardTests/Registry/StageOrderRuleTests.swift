import Foundation
import HTTPTypes
import InMemoryLogging
import Logging
import Switchyard
import SwitchyardTesting
import Testing

/// A user's stage that declares its own rule: a digest of what the common parameters and headers add.
private struct RequestDigest: RequestStage {
    var orderRules: [StageOrderRule] {
        [.inside(.commonParameters, .headers, because: "the digest covers the parameters and headers they add")]
    }

    func prepare(_ request: inout Request, context: CallContext) async throws {}
}

/// A stand-in for a credential stage, under the authorization stage's id.
private let authorization = ClosureStage.request(id: .authorization) { request, _ in request.headerFields[.authorization] = "Bearer t" }

@Suite("Order rules: a pipeline that breaks a required rule is refused at registration, advice is logged")
struct StageOrderRuleTests {
    /// Registers `stages` for the users service; the registry logs into `handler`.
    private static func register(_ stages: [any Stage], logging handler: InMemoryLogHandler = InMemoryLogHandler()) throws(SwitchyardError)
    {
        let logger = Logger(label: "registry", factory: { _ in handler })
        let registry = ServiceRegistry(
            configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil, logger: logger)
        )
        try registry.register(Service(.users, baseURL: "https://api.example.com", stages: stages, transport: MockTransport(.status(.ok))))
    }

    /// The error registering `stages` throws, if any.
    private static func refusal(_ stages: [any Stage]) -> SwitchyardError? {
        do {
            try register(stages)
            return nil
        } catch {
            return error
        }
    }

    @Test("a cache inside the authorization stage is refused, naming both stages and the fix")
    func cacheInsideAuthorization() throws {
        let error = Self.refusal([authorization, CacheStage(cache: try ResponseCache())])
        #expect(error?.code == .stageOrder)
        #expect(error?.stage == .cache)
        #expect(error?.serviceID == .users)
        #expect(error?.message.contains("Cache [2] must stand outside Authorization [1] — register Cache before Authorization") == true)
        #expect(Self.refusal([CacheStage(cache: try ResponseCache()), authorization]) == nil)
    }

    @Test("a cache inside the cookie stage is refused")
    func cacheInsideCookies() throws {
        #expect(Self.refusal([CookieStage(), CacheStage(cache: try ResponseCache())])?.code == .stageOrder)
        #expect(Self.refusal([CacheStage(cache: try ResponseCache()), CookieStage()]) == nil)
    }

    @Test("a retry inside the common parameters is advice: registered, with a warning naming both stages")
    func retryInsideCommonParameters() throws {
        let handler = InMemoryLogHandler()
        try Self.register([CommonParametersStage([.fixed("app", "demo")]), RetryStage(RetryPolicy(maxAttempts: 2))], logging: handler)
        let warnings = handler.entries.filter { $0.level == .warning }.map(\.message.description)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("Retry [2] must stand outside CommonParameters [1]") == true)
    }

    @Test("logging outside the headers stage is advice: registered, with a warning")
    func loggingOutsideHeaders() throws {
        let handler = InMemoryLogHandler()
        try Self.register([LoggingStage(), HeadersStage([.fixed(HTTPField.Name("X-App")!, "1")])], logging: handler)
        let warnings = handler.entries.filter { $0.level == .warning }.map(\.message.description)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("register Logging after Headers") == true)
    }

    @Test("a user's stage declares its own rule, and an opt-in stage keeps its wrapped stage's rules")
    func userStageRule() {
        let error = Self.refusal([RequestDigest().optIn(), HeadersStage([.fixed(HTTPField.Name("X-App")!, "1")])])
        #expect(error?.code == .stageOrder)
        #expect(error?.message.contains("the digest covers the parameters and headers they add") == true)
        #expect(Self.refusal([HeadersStage([.fixed(HTTPField.Name("X-App")!, "1")]), RequestDigest()]) == nil)
    }

    @Test("every breach is named, and a pipeline shows the rules its stages declare")
    func everyBreachAndShownRules() throws {
        let violations = StageOrderRule.violations(in: [authorization, CookieStage(), CacheStage(cache: try ResponseCache())])
        #expect(violations.map(\.other) == [.authorization, .cookies])
        #expect(violations.allSatisfy { $0.stage == .cache && $0.rule.strength == .required })
        let pipeline = Pipeline(
            serviceID: .users,
            stages: [CacheStage(cache: try ResponseCache()), LoggingStage()],
            transport: MockTransport(.status(.ok))
        )
        #expect(pipeline.orderRules[.cache]?.map(\.placement) == [.outside])
        #expect(
            pipeline.orderRules[.logging]?.first?.description.hasPrefix("inside Authorization, CommonParameters, Headers (advice)") == true
        )
    }
}

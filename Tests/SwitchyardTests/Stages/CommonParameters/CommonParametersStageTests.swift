import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Synchronization
import Testing

@Suite("Common parameters stage")
struct CommonParametersStageTests {
    private let stage = CommonParametersStage([.fixed("app", "demo"), .fixed("v", 3)])

    private func context(_ encoding: ParameterEncoding) -> CallContext {
        CallContext(serviceID: .users, endpointName: "test", parameterEncoding: encoding)
    }

    @Test("GET: appended to the query; the call's own value wins")
    func query() async throws {
        let run = await StageHarness(stage).run(try .fixture(.get, "https://api.test/users?v=9&q=a%20b"), context: context(.query))
        #expect(run.forwardedRequest?.path == "/users?v=9&q=a%20b&app=demo")
    }

    @Test("JSON: spliced into the object, the call's bytes untouched")
    func json() async throws {
        let request = try Request.fixture(
            .post,
            "https://api.test/orders",
            headerFields: [.contentType: "application/json"],
            body: #"{ "v": 1.50, "名": "值" }"#
        )
        let run = await StageHarness(stage).run(request, context: context(.json))
        #expect(run.forwardedRequest?.bodyText == #"{ "v": 1.50, "名": "值" ,"app":"demo"}"#)
        let empty = await StageHarness(stage).run(try .fixture(.post, "https://api.test/orders"), context: context(.json))
        #expect(empty.forwardedRequest?.bodyText == #"{"app":"demo","v":3}"#)
        #expect(empty.forwardedRequest?.headerFields[.contentType] == "application/json")
    }

    @Test("JSON: a body with nulls, even a name repeated with a null inside, is the caller's own: spliced into, not judged")
    func jsonWithNulls() async throws {
        let request = try Request.fixture(
            .post,
            "https://api.test/orders",
            headerFields: [.contentType: "application/json"],
            body: #"{"note":null,"item":{"x":1,"x":null}}"#
        )
        let run = await StageHarness(stage).run(request, context: context(.json))
        #expect(run.forwardedRequest?.bodyText == #"{"note":null,"item":{"x":1,"x":null},"app":"demo","v":3}"#)
    }

    @Test("commonWins replaces the call's value in JSON and query")
    func commonWins() async throws {
        let stage = CommonParametersStage([.fixed("v", 3)], precedence: .commonWins)
        let request = try Request.fixture(
            .post,
            "https://api.test/o",
            headerFields: [.contentType: "application/json"],
            body: #"{"a":[1,{"v":0}],"v":1,"b":"x"}"#
        )
        let run = await StageHarness(stage).run(request, context: context(.json))
        let body = try #require(run.forwardedRequest?.body?.bytes)
        #expect(String(decoding: body, as: UTF8.self) == #"{"a":[1,{"v":0}],"b":"x","v":3}"#)
        let get = await StageHarness(stage).run(try .fixture(.get, "https://api.test/o?v=1&w=2"), context: context(.query))
        #expect(get.forwardedRequest?.path == "/o?w=2&v=3")
    }

    @Test(
        "JSON: an empty object gets the parameters alone, and commonWins over only replaced members leaves no stray comma",
        arguments: [
            (CommonParametersStage.Precedence.callWins, "{}", #"{"app":"demo","v":3}"#),
            (.callWins, #"{"app":"x","v":1}"#, #"{"app":"x","v":1}"#), (.commonWins, #"{"v":1}"#, #"{"app":"demo","v":3}"#),
            (.commonWins, #"{"v":1,"app":"x"}"#, #"{"app":"demo","v":3}"#),
            (.commonWins, #"{"v":1,"w":2}"#, #"{"w":2,"app":"demo","v":3}"#),
        ]
    )
    func jsonEdges(precedence: CommonParametersStage.Precedence, body: String, expected: String) async throws {
        let stage = CommonParametersStage([.fixed("app", "demo"), .fixed("v", 3)], precedence: precedence)
        let request = try Request.fixture(.post, "https://api.test/o", headerFields: [.contentType: "application/json"], body: body)
        let run = await StageHarness(stage).run(request, context: context(.json))
        #expect(run.forwardedRequest?.bodyText == expected)
    }

    @Test("form: appended as fields; POST with placement .query puts them in the query instead")
    func formAndForcedQuery() async throws {
        let request = try Request.fixture(
            .post,
            "https://api.test/o",
            headerFields: [.contentType: "application/x-www-form-urlencoded"],
            body: "a=1&v=2"
        )
        let run = await StageHarness(stage).run(request, context: context(.form))
        #expect(run.forwardedRequest?.bodyText == "a=1&v=2&app=demo")
        let forced = CommonParametersStage([.fixed("appid", "wx1"), .fixed("ts", 100)], placement: .query)
        let run2 = await StageHarness(forced).run(request, context: context(.form))
        #expect(run2.forwardedRequest?.path == "/o?appid=wx1&ts=100")
        #expect(run2.forwardedRequest?.bodyText == "a=1&v=2")
    }

    @Test("the business parameters as one JSON form field, with common parameters beside it")
    func jsonFormField() async throws {
        let client = try makeClient(
            stages: [CommonParametersStage([.fixed("appid", "wx1")])],
            defaults: ServiceDefaults(parameterEncoding: .jsonFormField("data")),
            transport: echoTransport
        )
        let echo = try await client.send(.users, .post, "/legacy", parameters: ["page": 2, "name": "a&b"], as: Echo.self).value
        #expect(echo.body == "data=%7B%22name%22%3A%22a%26b%22%2C%22page%22%3A2%7D&appid=wx1")
        #expect(echo.contentType.hasPrefix("application/x-www-form-urlencoded"))
    }

    @Test("dynamic values are computed per call; nil leaves a parameter out; a call opts out by name or skips the stage")
    func dynamicAndOptOut() async throws {
        let counter = Atomic<Int>(0)
        let stage = CommonParametersStage([
            .dynamic("ts") { _ in .int(counter.add(1, ordering: .relaxed).newValue) },
            .dynamic("token") { context in context.endpointName == "public" ? nil : "t0k" },
            .fixed("app", "demo"),
        ])
        let client = try makeClient(stages: [stage], transport: echoTransport)
        #expect(try await client.send(.users, .get, "/a", as: Echo.self).value.target == "/a?ts=1&token=t0k&app=demo")
        #expect(try await client.send(.users, .get, "/a", as: Echo.self).value.target == "/a?ts=2&token=t0k&app=demo")
        var options = CallOptions()
        options.omitCommonParameters(["token", "app"])
        #expect(try await client.send(.users, .get, "/a", options: options, as: Echo.self).value.target == "/a?ts=3")
        let skipped = try await client.send(
            .users,
            .get,
            "/a",
            options: CallOptions(skippedStages: ["CommonParameters"]),
            as: Echo.self
        )
        #expect(skipped.value.target == "/a")
    }

    @Test("a JSON body that is not an object, or a failing dynamic value, ends the call with a typed error before sending")
    func failures() async throws {
        let array = try Request.fixture(.post, "https://api.test/o", headerFields: [.contentType: "application/json"], body: "[1,2]")
        let run = await StageHarness(stage).run(array, context: context(.json))
        #expect(run.error?.code == .encoding)
        #expect(!run.calledNext)
        struct NoDevice: Error {}
        let failing = CommonParametersStage([.dynamic("device") { _ in throw NoDevice() }])
        let run2 = await StageHarness(failing).run(try .fixture(.get, "https://api.test/o"), context: context(.query))
        #expect(run2.error?.stage == StageID("CommonParameters"))
        #expect(!run2.calledNext)
        let nan = await StageHarness(CommonParametersStage([.fixed("x", .double(.nan))])).run(
            try .fixture(.post, "https://api.test/o"),
            context: context(.json)
        )
        #expect(nan.error?.code == .encoding)
    }
}

@Suite("Headers stage")
struct HeadersStageTests {
    @Test("adds base fields, keeps the call's own, computes dynamic ones, and honours opt-outs")
    func headers() async throws {
        let stage = HeadersStage([
            .fixed(HTTPField.Name("X-App")!, "demo"),
            .fixed(.acceptLanguage, "en"),
            .dynamic(HTTPField.Name("X-Request-Id")!) { context in "\(context.requestID)" },
        ])
        let request = try Request.fixture(.get, "https://api.test/a", headerFields: [.acceptLanguage: "zh-Hans"])
        let context = CallContext(serviceID: .users)
        let run = await StageHarness(stage).run(request, context: context)
        let fields = try #require(run.forwardedRequest?.headerFields)
        #expect(fields[HTTPField.Name("X-App")!] == "demo")
        #expect(fields[.acceptLanguage] == "zh-Hans")
        #expect(fields[HTTPField.Name("X-Request-Id")!] == "\(context.requestID)")

        let transport = MockTransport(.status(.ok))
        let client = try makeClient(
            stages: [stage],
            defaults: ServiceDefaults(headerFields: [HTTPField.Name("X-Base")!: "1"]),
            transport: transport
        )
        var options = CallOptions()
        options.omitHeaders([HTTPField.Name("X-App")!, HTTPField.Name("X-Base")!])
        _ = try await client.send(.users, .get, "/a", options: options)
        let sent = try #require(transport.requests.last)
        #expect(sent.headerFields[HTTPField.Name("X-App")!] == nil)
        #expect(sent.headerFields[HTTPField.Name("X-Base")!] == nil)
        #expect(sent.headerFields[.acceptLanguage] == "en")
    }
}

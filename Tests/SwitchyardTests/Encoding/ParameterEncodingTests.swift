import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Parameter encoding")
struct ParameterEncodingTests {
    private func echo(
        _ method: HTTPRequest.Method,
        parameters: Parameters,
        encoding: ParameterEncoding? = nil,
        defaults: ServiceDefaults = ServiceDefaults()
    ) async throws -> Echo {
        let client = try makeClient(defaults: defaults, transport: echoTransport)
        return try await client.send(.users, method, "/e", parameters: parameters, encoding: encoding, as: Echo.self).value
    }

    @Test(
        "a service's default never puts GET, HEAD, DELETE or OPTIONS parameters in a body: they go in the query under every default",
        arguments: [HTTPRequest.Method.get, .head, .delete, .options],
        [ParameterEncoding.automatic, .query, .form, .json, .jsonFormField("data")]
    )
    func bodilessMethodsUseTheQuery(method: HTTPRequest.Method, serviceDefault: ParameterEncoding) async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(defaults: ServiceDefaults(parameterEncoding: serviceDefault), transport: transport)
        _ = try await client.send(.users, method, "/articles", parameters: ["page": 2])
        let request = try #require(transport.requests.first)
        #expect(request.path == "/articles?page=2")
        #expect(request.body == nil)
        #expect(request.headerFields[.contentType] == nil)
    }

    @Test("a service's body default still applies to POST, PUT and PATCH", arguments: [HTTPRequest.Method.post, .put, .patch])
    func bodyMethodsUseTheServiceDefault(method: HTTPRequest.Method) async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(defaults: ServiceDefaults(parameterEncoding: .form), transport: transport)
        _ = try await client.send(.users, method, "/articles", parameters: ["page": 2])
        let request = try #require(transport.requests.first)
        #expect(request.path == "/articles")
        #expect(request.bodyText == "page=2")
    }

    @Test("an encoding the call names for a GET is honoured: a body, when a backend reads one")
    func explicitBodyOnGet() async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(transport: transport)
        _ = try await client.send(.users, .get, "/search", parameters: ["q": "x"], encoding: .json)
        let request = try #require(transport.requests.first)
        #expect(request.path == "/search")
        #expect(request.bodyText == #"{"q":"x"}"#)
    }

    @Test(
        "automatic encoding: query for GET, HEAD and DELETE; JSON body for POST, PUT and PATCH",
        arguments: [
            (HTTPRequest.Method.get, true), (.head, true), (.delete, true), (.post, false), (.put, false), (.patch, false),
        ]
    )
    func automaticPerMethod(method: HTTPRequest.Method, inQuery: Bool) async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(transport: transport)
        _ = try await client.send(.users, method, "/e", parameters: ["b": 2, "a": "x y"])
        let request = try #require(transport.requests.first)
        #expect(request.method == method)
        if inQuery {
            #expect(request.path == "/e?b=2&a=x%20y")
            #expect(request.body == nil)
            #expect(request.headerFields[.contentType] == nil)
        } else {
            #expect(request.path == "/e")
            #expect(request.bodyText == #"{"a":"x y","b":2}"#)
            #expect(request.headerFields[.contentType] == "application/json")
        }
    }

    @Test("form encoding writes a urlencoded body with the RFC 3986 unreserved set")
    func formBody() async throws {
        let echo = try await echo(.post, parameters: ["name": "Ada Lovelace", "plus": "1+1=2", "zh": "中"], encoding: .form)
        #expect(echo.body == "name=Ada%20Lovelace&plus=1%2B1%3D2&zh=%E4%B8%AD")
        #expect(echo.contentType == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(echo.target == "/e")
    }

    @Test("query encoding puts parameters in the query even for POST")
    func queryForPost() async throws {
        let echo = try await echo(.post, parameters: ["a": 1], encoding: .query)
        #expect(echo.target == "/e?a=1")
        #expect(echo.body.isEmpty)
    }

    @Test("the service's default encoding applies when the endpoint does not choose")
    func serviceDefault() async throws {
        let echo = try await echo(.post, parameters: ["a": 1], defaults: ServiceDefaults(parameterEncoding: .form))
        #expect(echo.body == "a=1")
    }

    @Test("arrays, nested objects, booleans and nulls are flattened for queries")
    func flattening() async throws {
        let parameters: Parameters = ["ids": [1, 2], "filter": ["lang": "zh", "min": 1.5], "on": true, "gone": nil]
        #expect(try FormURLEncoder().encode(parameters) == "ids%5B%5D=1&ids%5B%5D=2&filter%5Blang%5D=zh&filter%5Bmin%5D=1.5&on=true")
        #expect(try FormURLEncoder(arrayStyle: .repeated).encode(["ids": [1, 2]]) == "ids=1&ids=2")
        #expect(try FormURLEncoder(arrayStyle: .commaSeparated).encode(["ids": [1, 2]]) == "ids=1%2C2")
    }

    @Test("JSON bodies keep nulls, nesting and non-ASCII text, with sorted keys")
    func jsonBody() async throws {
        let echo = try await echo(.put, parameters: ["z": nil, "a": ["k": [true, 1]], "name": "张衡"])
        #expect(echo.body == #"{"a":{"k":[true,1]},"name":"张衡","z":null}"#)
    }

    @Test("JSON bodies write integers of every sign and escape quotes, backslashes and control characters")
    func jsonIntegersAndEscapes() async throws {
        let echo = try await echo(
            .put,
            parameters: [
                "n": -42, "zero": 0, "min": .int(Int.min), "max": .int(Int.max),
                "s": "a\"b\\c\n\r\t\u{1}\u{1F}/é",
                "b": ["y": 1, "x": ["q": 2, "p": 3]],
            ]
        )
        #expect(
            echo.body
                == #"{"b":{"x":{"p":3,"q":2},"y":1},"max":9223372036854775807,"min":-9223372036854775808,"n":-42,"#
                + #""s":"a\"b\\c\n\r\t\u0001\u001f/é","zero":0}"#
        )
    }

    @Test("a non-finite number is an encoding error, for queries and JSON alike", arguments: [ParameterEncoding.query, .json, .form])
    func nonFinite(encoding: ParameterEncoding) async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(transport: transport)
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(.users, .post, "/e", parameters: ["x": .double(.nan)], encoding: encoding)
        }
        #expect(error?.code == .encoding)
        #expect(transport.requestCount == 0)
    }

    @Test("an explicit body is sent as given and parameters then go to the query")
    func explicitBody() async throws {
        struct NewUser: Encodable, Sendable {
            let name: String
            let age: Int
        }
        let client = try makeClient(transport: echoTransport)
        let endpoint = DynamicEndpoint<Echo>(
            service: .users,
            method: .post,
            path: "/users",
            parameters: ["dryRun": true],
            body: .json(NewUser(name: "Ada", age: 36)),
            as: Echo.self
        )
        let echo = try await client.send(endpoint).value
        #expect(echo.body == #"{"age":36,"name":"Ada"}"#)
        #expect(echo.target == "/users?dryRun=true")
        #expect(echo.contentType == "application/json")
    }

    @Test("header fields: service defaults, then the endpoint's, then the call's; same names are replaced")
    func headerPrecedence() async throws {
        let transport = MockTransport(.status(.ok))
        var defaults = ServiceDefaults()
        defaults.headerFields = [.accept: "application/json", .acceptLanguage: "en", .userAgent: "service"]
        let client = try makeClient(defaults: defaults, transport: transport)
        let options = CallOptions(headerFields: [.userAgent: "call"])
        _ = try await client.send(.users, .get, "/", headerFields: [.acceptLanguage: "zh", .userAgent: "endpoint"], options: options)
        let fields = try #require(transport.requests.first?.headerFields)
        #expect(fields[.accept] == "application/json")
        #expect(fields[.acceptLanguage] == "zh")
        #expect(fields[.userAgent] == "call")
        #expect(fields[values: .userAgent].count == 1)
    }

    @Test("a comma-separated list refuses values it cannot carry instead of dropping them")
    func commaSeparatedRefusesNesting() {
        #expect(throws: SwitchyardError.self) { try FormURLEncoder(arrayStyle: .commaSeparated).encode(["ids": [1, [2, 3]]]) }
        #expect(throws: SwitchyardError.self) { try FormURLEncoder(arrayStyle: .commaSeparated).encode(["ids": [1, nil]]) }
    }

    @Test("the encoding's content type beats the service's default; the endpoint's or call's own wins")
    func contentTypePrecedence() async throws {
        var defaults = ServiceDefaults()
        defaults.headerFields[.contentType] = "application/json"
        let form = try await echo(.post, parameters: ["a": 1], encoding: .form, defaults: defaults)
        #expect(form.contentType == "application/x-www-form-urlencoded; charset=utf-8")

        let client = try makeClient(transport: echoTransport)
        let custom = try await client.send(
            .users,
            .post,
            "/e",
            parameters: ["a": 1],
            headerFields: [.contentType: "application/vnd.api+json"],
            as: Echo.self
        ).value
        #expect(custom.contentType == "application/vnd.api+json")
    }

    @Test("the service's JSON key strategy applies to model bodies, never to parameter names")
    func keyStrategyDoesNotRenameParameters() async throws {
        struct Model: Encodable, Sendable { let pageSize: Int }
        let defaults = ServiceDefaults(makeEncoder: {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return encoder
        })
        let parameters = try await echo(.post, parameters: ["pageSize": 20], defaults: defaults)
        #expect(parameters.body == #"{"pageSize":20}"#)
        let client = try makeClient(defaults: defaults, transport: echoTransport)
        let model = try await client.send(
            DynamicEndpoint<Echo>(service: .users, method: .post, path: "/e", body: .json(Model(pageSize: 20)), as: Echo.self)
        )
        #expect(model.value.body == #"{"page_size":20}"#)
    }

    @Test("parameters keep insertion order; setting an existing name replaces it in place; nil removes")
    func parametersCollection() {
        var parameters: Parameters = ["b": 1, "a": 2]
        parameters["b"] = 3
        parameters["c"] = 4
        parameters["a"] = nil
        #expect(parameters.map(\.name) == ["b", "c"])
        #expect(parameters["b"] == 3)
        let merged = parameters.merging(defaults: ["c": 9, "d": 5])
        #expect(merged.map(\.name) == ["b", "c", "d"])
        #expect(merged["c"] == 4)
    }
}

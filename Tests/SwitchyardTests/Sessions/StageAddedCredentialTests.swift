import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// Who is signed in, as the app's own token store would say; the test switches users.
private final class SignedIn: Sendable {
    private let user: Locked<String>
    init(_ user: String) { self.user = Locked(user) }
    func signIn(_ name: String) { user.withLock { $0 = name } }
    var token: String { "token-" + user.withLock { $0 } }
}

/// The user a call is made for, as a context value a dynamic header reads.
private enum CallUser: CallContextKey { typealias Value = String }

/// A stage of the app's own — not marked as bearing credentials — that puts the user's session cookie on.
private struct SessionCookie: RequestStage {
    let signedIn: SignedIn
    var id: StageID { "session-cookie" }
    func prepare(_ request: inout Request, context: CallContext) async throws {
        request.headerFields[.cookie] = "sid=" + signedIn.token
    }
}

/// Answers `GET /me` with the user named by the token in `Authorization`, the `access_token` query
/// parameter or the `sid` cookie.
private let profiles = MockTransport { request, _ in
    let fromCookie = request.headerFields[.cookie].map { String($0.dropFirst("sid=".count)) }
    let token = request.headerFields[.authorization].map { String($0.dropFirst("Bearer ".count)) } ?? fromCookie
    let fromQuery = request.query.flatMap { query in
        query.split(separator: "&").first { $0.hasPrefix("access_token=") }.map { String($0.dropFirst("access_token=".count)) }
    }
    guard let token = token ?? fromQuery, token.hasPrefix("token-") else { return Response(status: .unauthorized) }
    let body = #"{"id":1,"name":"\#(token.dropFirst("token-".count))"}"#
    return Response(status: .ok, headerFields: [.contentType: "application/json", .cacheControl: "max-age=3600"], body: Data(body.utf8))
}

@Suite("Sessions: a credential any stage adds keeps one user's answer from the next", .timeLimit(.minutes(1)))
struct StageAddedCredentialTests {
    /// Two users on one client, one after the other: each must get their own `/me` from the network.
    private func twoUsers(
        stages: (SignedIn) throws -> [any Stage]
    ) async throws -> (ada: CallResult<User>, bob: CallResult<User>, sent: Int) {
        let signedIn = SignedIn("ada")
        let transport = MockTransport { request, context in try await profiles.send(request, context: context) }
        let client = try makeClient(stages: try stages(signedIn), transport: transport)
        let ada = try await client.send(GetMe())
        signedIn.signIn("bob")
        let bob = try await client.send(GetMe())
        return (ada, bob, transport.requests.count)
    }

    @Test("a dynamic header token added inside the cache: the next user gets their own /me, not the cached one")
    func dynamicHeaderInsideCache() async throws {
        let result = try await twoUsers { signedIn in
            [CacheStage(cache: try ResponseCache()), HeadersStage([.dynamic(.authorization) { _ in "Bearer " + signedIn.token }])]
        }
        #expect(result.ada.value.name == "ada")
        #expect(result.bob.value.name == "bob")
        #expect(result.bob.source == .network)
    }

    @Test("a dynamic common parameter token added inside the cache: the next user gets their own /me")
    func dynamicCommonParameterInsideCache() async throws {
        let result = try await twoUsers { signedIn in
            [CacheStage(cache: try ResponseCache()), CommonParametersStage([.dynamic("access_token") { _ in .string(signedIn.token) }])]
        }
        #expect(result.bob.value.name == "bob")
        #expect(result.bob.source == .network)
    }

    @Test("a cookie put on by a stage of the app's own, inside the cache, is never filed as public")
    func ownStageCookieInsideCache() async throws {
        let result = try await twoUsers { signedIn in [CacheStage(cache: try ResponseCache()), SessionCookie(signedIn: signedIn)] }
        #expect(result.bob.value.name == "bob")
        #expect(result.bob.source == .network)
        #expect(result.sent == 2)
    }

    @Test("endSession leaves nothing of the ended user's for the next one, whichever stage added the token")
    func endSessionThenNextUser() async throws {
        let signedIn = SignedIn("ada")
        let cache = try ResponseCache()
        let client = try makeClient(
            stages: [CacheStage(cache: cache), HeadersStage([.dynamic(.authorization) { _ in "Bearer " + signedIn.token }])],
            transport: profiles
        )
        #expect(try await client.send(GetMe()).value.name == "ada")
        await client.endSession()
        signedIn.signIn("bob")
        let bob = try await client.send(GetMe())
        #expect(bob.value.name == "bob" && bob.source == .network)
    }

    @Test("a credential the cache saw itself, or a credential source names, still caches per user")
    func accountedCredentialsStillCache() async throws {
        let signedIn = SignedIn("ada")
        let transport = MockTransport { request, context in try await profiles.send(request, context: context) }
        let client = try makeClient(
            stages: [HeadersStage([.dynamic(.authorization) { _ in "Bearer " + signedIn.token }]), CacheStage(cache: try ResponseCache())],
            transport: transport
        )
        #expect(try await client.send(GetMe()).source == .network)
        #expect(try await client.send(GetMe()).source == .memoryCache)
        signedIn.signIn("bob")
        let bob = try await client.send(GetMe())
        #expect(bob.value.name == "bob" && bob.source == .network)
        #expect(transport.requests.count == 2)
    }

    @Test("two users' identical calls never share one exchange when a dynamic header adds their tokens")
    func coalescingDynamicHeader() async throws {
        let gate = Locked(false)
        let transport = MockTransport { request, context in
            while !gate.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(2)) }
            return try await profiles.send(request, context: context)
        }
        let client = try makeClient(
            stages: [HeadersStage([.dynamic(.authorization) { context in context[CallUser.self].map { "Bearer token-" + $0 } }])],
            transport: transport
        )
        func options(_ user: String) -> CallOptions {
            var options = CallOptions()
            options.sameRequest = .coalesce
            options.setContextValue(user, for: CallUser.self)
            return options
        }
        async let ada = client.send(.users, .get, "/me", options: options("ada"), as: User.self)
        while transport.requests.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
        async let bob = client.send(.users, .get, "/me", options: options("bob"), as: User.self)
        try await Task.sleep(for: .milliseconds(50))  // bob's call joins ada's exchange while it waits
        gate.withLock { $0 = true }
        let (first, second) = try await (ada, bob)
        #expect(first.value.name == "ada")
        #expect(second.value.name == "bob")
        #expect(second.source == .network)
        #expect(transport.requests.count == 2)
    }
}

@Suite("Sessions: credentials of a fixed value the service declares its own name no user", .timeLimit(.minutes(1)))
struct FixedCredentialTests {
    @Test("a fixed app key header or parameter the service declares its own, added inside the cache, still lets the cache store")
    func fixedKeysInsideCacheStillCache() async throws {
        let transport = MockTransport(.json(#"{"id":1,"name":"x"}"#, headerFields: [.cacheControl: "max-age=3600"]))
        let client = try makeClient(
            stages: [
                CacheStage(cache: try ResponseCache()),
                HeadersStage([.fixed(HTTPField.Name("X-Api-Key")!, "app-1", isServiceCredential: true)]),
                CommonParametersStage([.fixed("appkey", .string("app 1"), isServiceCredential: true)]),
            ],
            transport: transport
        )
        #expect(try await client.send(GetMe()).source == .network)
        #expect(try await client.send(GetMe()).source == .memoryCache)
        #expect(transport.requests.count == 1)
    }

    @Test("a stage of the app's own that writes another value under a fixed key's name keeps the answer out of the cache")
    func otherValueUnderAFixedName() async throws {
        let transport = MockTransport(.json(#"{"id":1,"name":"x"}"#, headerFields: [.cacheControl: "max-age=3600"]))
        let userKey = ClosureStage(id: "user-key") { request, context, next in
            var request = request
            request.headerFields[HTTPField.Name("X-Api-Key")!] = "user-ada"
            return try await next(request, context)
        }
        let client = try makeClient(
            stages: [
                CacheStage(cache: try ResponseCache()),
                HeadersStage([.fixed(HTTPField.Name("X-Api-Key")!, "app-1", isServiceCredential: true)]),
                userKey,
            ],
            transport: transport
        )
        _ = try await client.send(GetMe())
        #expect(try await client.send(GetMe()).source == .network)
        #expect(transport.requests.count == 2)
    }
}

import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

private let userKey = HTTPField.Name("X-User-Key")!

/// Answers `GET /me` with the profile of the user named by the token in `Authorization`, `X-User-Key`
/// or the `access_token` query parameter — public and fresh for an hour, as a careless backend says.
private let profiles = MockTransport { request, _ in
    let bearer = request.headerFields[.authorization].map { String($0.dropFirst("Bearer ".count)) }
    let query = request.query.flatMap { query in
        query.split(separator: "&").first { $0.hasPrefix("access_token=") }.map { String($0.dropFirst("access_token=".count)) }
    }
    guard let token = bearer ?? request.headerFields[userKey] ?? query, token.hasPrefix("token-") else {
        return Response(status: .unauthorized)
    }
    let body = #"{"id":1,"name":"\#(token.dropFirst("token-".count))"}"#
    return Response(
        status: .ok,
        headerFields: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
        body: Data(body.utf8)
    )
}

/// The ways an app can put a signed-in user's token on every call with a value fixed when the client
/// is made — every one of them a user's credential, since none is declared the service's own.
enum FixedUserToken: String, CaseIterable, Sendable {
    case headerAuthorization, headerFields, credentialNamedHeader, commonParameter, ownStage

    func stage(for user: String) -> any Stage {
        switch self {
        case .headerAuthorization: HeadersStage([.fixed(.authorization, "Bearer token-" + user)])
        case .headerFields: HeadersStage([.authorization: "Bearer token-" + user])
        case .credentialNamedHeader: HeadersStage([.fixed(userKey, "token-" + user)])
        case .commonParameter: CommonParametersStage([.fixed("access_token", .string("token-" + user))])
        case .ownStage:
            ClosureStage(id: "user-key") { request, context, next in
                var request = request
                request.headerFields[userKey] = "token-" + user
                return try await next(request, context)
            }
        }
    }
}

/// Every byte of every file under `directory`, as text.
private func contents(of directory: URL) throws -> String {
    let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
    return try files.filter { !$0.hasDirectoryPath }.map { String(decoding: try Data(contentsOf: $0), as: UTF8.self) }.joined()
}

@Suite("Sessions: a user's token given as a fixed value never makes that user's answers public", .timeLimit(.minutes(1)))
struct FixedUserCredentialTests {
    @Test(
        "two accounts on one device, a fixed token inside the cache: B never gets A's answer, and none of A's is on disk",
        arguments: FixedUserToken.allCases
    )
    func nextUserOfTheDevice(token: FixedUserToken) async throws {
        let directory = try TemporaryDirectory()
        let cache = try ResponseCache(directory: directory.url)
        let ada = try makeClient(stages: [CacheStage(cache: cache), token.stage(for: "ada")], transport: profiles)
        #expect(try await ada.send(GetMe()).value.name == "ada")
        #expect(try await ada.send(GetMe()).value.name == "ada")
        let written = try contents(of: directory.url)
        #expect(!written.contains("ada"))
        await ada.endSession()

        let bob = try makeClient(stages: [CacheStage(cache: cache), token.stage(for: "bob")], transport: profiles)
        let seen = try await bob.send(GetMe())
        #expect(seen.value.name == "bob")
        #expect(seen.source == .network)
        // A later process over the same directory finds nothing of either user's.
        let later = try makeClient(
            stages: [CacheStage(cache: try ResponseCache(directory: directory.url)), token.stage(for: "bob")],
            transport: profiles
        )
        #expect(try await later.send(GetMe()).value.name == "bob")
    }

    @Test(
        "two accounts sharing one client's cache without ending the session: each gets their own answer",
        arguments: FixedUserToken.allCases
    )
    func twoAccountsOneCache(token: FixedUserToken) async throws {
        let cache = try ResponseCache()
        let ada = try makeClient(stages: [CacheStage(cache: cache), token.stage(for: "ada")], transport: profiles)
        let bob = try makeClient(stages: [CacheStage(cache: cache), token.stage(for: "bob")], transport: profiles)
        #expect(try await ada.send(GetMe()).value.name == "ada")
        #expect(try await bob.send(GetMe()).value.name == "bob")
        #expect(try await ada.send(GetMe()).value.name == "ada")
    }

    @Test("a fixed user token outside the cache: cached for that user in memory only, and gone with endSession")
    func outsideTheCache() async throws {
        let directory = try TemporaryDirectory()
        let cache = try ResponseCache(directory: directory.url)
        let transport = MockTransport { request, context in try await profiles.send(request, context: context) }
        let ada = try makeClient(
            stages: [FixedUserToken.headerAuthorization.stage(for: "ada"), CacheStage(cache: cache)],
            transport: transport
        )
        _ = try await ada.send(GetMe())
        #expect(try await ada.send(GetMe()).source == .memoryCache)
        let written = try contents(of: directory.url)
        #expect(!written.contains("ada"))
        await ada.endSession()
        #expect(try await ada.send(GetMe()).source == .network)
    }

    @Test("a key the service declares its own, outside the cache, names no user: public, on disk, kept past endSession")
    func declaredServiceKeyIsPublic() async throws {
        let directory = try TemporaryDirectory()
        let appKey = HTTPField.Name("X-Api-Key")!
        let transport = MockTransport(.json(#"{"id":1,"name":"catalogue"}"#, headerFields: [.cacheControl: "max-age=3600"]))
        let stages: () throws -> [any Stage] = {
            [
                HeadersStage([.fixed(appKey, "app-1", isServiceCredential: true)]),
                CacheStage(cache: try ResponseCache(directory: directory.url)),
            ]
        }
        let client = try makeClient(stages: try stages(), transport: transport)
        _ = try await client.send(GetMe())
        await client.endSession()
        #expect(try await client.send(GetMe()).source == .memoryCache)
        let later = try makeClient(stages: try stages(), transport: transport)
        #expect(try await later.send(GetMe()).source == .diskCache)
        #expect(transport.requests.count == 1)
    }
}

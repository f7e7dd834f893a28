import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// Refreshes by calling `POST /auth/refresh` through a client whose service carries the very
/// authorization stage the refresh is for.
private final class SelfRefreshingProvider: TokenProvider, Sendable {
    let client = Locked<APIClient?>(nil)
    func currentToken() async throws -> String? { "expired" }
    func refreshToken(replacing expired: String) async throws -> String {
        guard let client = client.withLock({ $0 }) else { throw CancellationError() }
        return try await client.send(.users, .post, "/auth/refresh", as: String.self).value
    }
}

@Suite("Sessions: a refresh made through the service it refreshes never waits on itself", .timeLimit(.minutes(1)))
struct RefreshThroughSameServiceTests {
    @Test("a refused refresh through the same service ends every waiting call promptly with authentication")
    func refusedRefreshEndsPromptly() async throws {
        let provider = SelfRefreshingProvider()
        let transport = MockTransport(.status(.unauthorized))
        let client = try makeClient(stages: [AuthorizationStage(provider: provider)], transport: transport)
        provider.client.withLock { $0 = client }
        // A deadline far longer than the test needs: a self-wait would end in `timeout` instead.
        let options = CallOptions(deadline: .seconds(20))
        let errors = await withTaskGroup(of: SwitchyardError?.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    do throws(SwitchyardError) {
                        _ = try await client.send(.users, .get, "/me", options: options)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(errors.allSatisfy { $0?.code == .authentication }, "\(errors.map { $0?.description ?? "-" })")
        // The refresh went out without the expired token.
        let refresh = transport.requests.filter { $0.path == "/auth/refresh" }
        #expect(refresh.count == 1)
        #expect(refresh.first?.headerFields[.authorization] == nil)
    }

    @Test("an accepted refresh through the same service is used by the refused call's replay")
    func acceptedRefreshIsUsed() async throws {
        let provider = SelfRefreshingProvider()
        let transport = MockTransport { request, _ in
            if request.path == "/auth/refresh" { return Response(status: .ok, body: Data(#""fresh""#.utf8)) }
            return Response(status: request.headerFields[.authorization] == "Bearer fresh" ? .ok : .unauthorized)
        }
        let client = try makeClient(stages: [AuthorizationStage(provider: provider)], transport: transport)
        provider.client.withLock { $0 = client }
        let result = try await client.send(.users, .get, "/me")
        #expect(result.status == .ok)
        #expect(transport.requests.map(\.path) == ["/me", "/auth/refresh", "/me"])
    }
}

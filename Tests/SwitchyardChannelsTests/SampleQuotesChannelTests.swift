import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardChannels
import SwitchyardSampleBackend
import Testing

/// The sample backend's quotes channel, which the demo opens: its refusal, its messages and its close.
@Suite("The sample backend's quotes channel (the demo's module 9)", .timeLimit(.minutes(1)))
struct SampleQuotesChannelTests {
    private struct Quote: Decodable, Equatable {
        let symbol: String
        let price: Double
    }

    /// A client whose `quotes` service is `backend`'s, with the demo token unless `token` is `nil`.
    private func client(_ backend: SampleBackend, token: String?) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        let stages: [any Stage] =
            token.map { token in
                [ClosureStage.request(id: .authorization) { request, _ in request.headerFields[.authorization] = "Bearer \(token)" }]
            } ?? []
        try registry.register(
            Service("quotes", baseURL: backend.baseURL + "/quotes-api", stages: stages, transport: AsyncHTTPClientTransport())
        )
        return APIClient(registry: registry)
    }

    private let feed = DynamicEndpoint<NoContent>(service: "quotes", method: .get, path: "/quotes", as: NoContent.self)

    @Test("without the token the upgrade is refused with 401, a typed error carrying the answer")
    func refused() async throws {
        let backend = try await SampleBackend.start()
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client(backend, token: nil).channel(feed) }
        #expect(error?.code == .httpStatus)
        #expect(error?.response?.status == .unauthorized)
        try await backend.shutdown()
    }

    @Test("with it: a greeting, one quote per subscribed symbol, and the close frame echoed")
    func quotes() async throws {
        let backend = try await SampleBackend.start()
        // The close below waits for the server's close frame up to the close timeout: an hour, so a
        // backend that did not echo it would run into the suite's time limit.
        let channel = try await client(backend, token: "demo-token").channel(
            feed,
            configuration: ChannelConfiguration(closeTimeout: .seconds(3600))
        )
        var messages = channel.messages.makeAsyncIterator()
        _ = try await messages.next()
        try await channel.send(.text(#"{"subscribe":["GLOBEX","NOPE","ACME"]}"#))
        let first = try #require(try await messages.next()).decode(Quote.self)
        let second = try #require(try await messages.next()).decode(Quote.self)
        #expect([first, second] == [Quote(symbol: "ACME", price: 101.25), Quote(symbol: "GLOBEX", price: 47.5)])
        await channel.close(ChannelClose(code: .goingAway))
        #expect(try await messages.next() == nil)
        try await backend.shutdown()
    }
}

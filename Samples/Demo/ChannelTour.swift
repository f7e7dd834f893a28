import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardChannels
import SwitchyardSampleBackend

/// Step 16 of the demo: module 9, `quotes` — a WebSocket channel opened through the module's
/// pipeline. The upgrade request passes the module's stages like any call (its token, its header,
/// the transcript's lines), so without the authorization stage the backend refuses it with a typed
/// `401`. Open, the channel greets with the symbols; a JSON subscription is answered with one quote
/// each, decoded as `Codable`; cancelling the channel's tag closes it with a close frame.
enum ChannelTour {
    static let quotes: ServiceID = "quotes"

    /// The channel's endpoint: the upgrade request.
    struct QuoteFeed: Endpoint {
        typealias Output = NoContent
        var service: ServiceID { ChannelTour.quotes }
        var method: HTTPRequest.Method { .get }
        var path: String { "/quotes" }
    }

    /// The greeting the channel sends first.
    struct Hello: Decodable {
        let symbols: [String]
    }

    /// What the app sends to subscribe.
    struct Subscribe: Encodable {
        let subscribe: [String]
    }

    /// One quote.
    struct Quote: Decodable {
        let symbol: String
        let price: Double
    }

    static func register(in registry: ServiceRegistry, backend: SampleBackend, transport: AsyncHTTPClientTransport) throws {
        try registry.register(
            Service(
                quotes,
                baseURLs: [.develop: backend.baseURL + "/quotes-api", .release: "https://api.example.com/quotes"],
                stages: [
                    ClosureStage.request(id: .authorization) { request, _ in request.headerFields[.authorization] = "Bearer demo-token" },
                    HeadersStage([.fixed(HTTPField.Name("X-Client-Version")!, "1.0.0")]),
                    TranscriptStage(),
                ],
                transport: transport
            )
        )
    }

    static func run(client: APIClient) async throws {
        print("   without its authorization stage the upgrade is refused like any call:")
        await SwitchyardDemo.expectFailure {
            _ = try await client.channel(QuoteFeed(), options: CallOptions(skippedStages: [.authorization]))
        }
        let channel = try await client.channel(QuoteFeed(), options: CallOptions(tags: ["ticker"]))
        var messages = channel.messages.makeAsyncIterator()
        guard let greeting = try await messages.next() else { return }
        let hello = try greeting.decode(Hello.self)
        print("   open (\(channel.upgrade.status.code)); the server quotes \(hello.symbols.joined(separator: ", "))")
        try await channel.send(json: Subscribe(subscribe: hello.symbols))
        for _ in hello.symbols {
            guard let message = try await messages.next() else { break }
            let quote = try message.decode(Quote.self)
            print("   \(quote.symbol): \(quote.price)")
        }
        let cancelled = client.cancel(.tag("ticker"))
        print("   cancelled by tag 'ticker': \(cancelled.count) channel")
        do {
            _ = try await messages.next()
            print("   unexpectedly still open")
        } catch let error as SwitchyardError {
            print("   the channel ended: \(error.code)\n")
        }
    }
}

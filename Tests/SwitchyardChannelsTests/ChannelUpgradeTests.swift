import Foundation
import HTTPTypes
import Switchyard
import SwitchyardChannels
import Synchronization
import Testing

/// Values a test collects from other tasks.
final class Collected<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// Records the status each answer had when it reached it (a response stage).
struct StatusRecorder: ResponseStage {
    let statuses = Collected<Int>()
    var id: StageID { StageID("StatusRecorder") }

    func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        statuses.append(response.status.code)
    }
}

@Suite(
    "Channels: the upgrade goes through the service's pipeline (Python websockets server)",
    .enabled(if: ChannelServers.enabled, "python3 with websockets is needed: pip install websockets"),
    .timeLimit(.minutes(1))
)
struct ChannelUpgradeTests {
    @Test("the upgrade request carries the fields the request stages set; the response stages see 101")
    func upgradeRunsTheStages() async throws {
        let recorder = StatusRecorder()
        let stages: [any Stage] = [HeadersStage([HTTPField.Name("X-App")!: "demo"]), recorder]
        let client = try ChannelServers.client(try await ChannelServers.plainURL(), stages: stages)
        let channel = try await client.channel(endpoint("/echo"))
        var messages = channel.messages.makeAsyncIterator()
        struct Hello: Decodable { let headers: [String: String] }
        let hello = try #require(try await messages.next()).decode(Hello.self)
        await channel.close()
        #expect(hello.headers["x-app"] == "demo")
        #expect(hello.headers["upgrade"]?.lowercased() == "websocket")
        #expect(recorder.statuses.all == [101])
        #expect(channel.upgrade.status.code == 101)
        #expect(channel.upgrade.headerFields[HTTPField.Name("Sec-WebSocket-Accept")!] != nil)
    }

    @Test("text, binary and JSON messages echo back whole")
    func echoes() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let channel = try await client.channel(endpoint("/echo"))
        var messages = channel.messages.makeAsyncIterator()
        _ = try await messages.next()
        try await channel.send(.text("héllo"))
        #expect(try await messages.next() == .text("héllo"))
        try await channel.send(.binary(Data([0, 1, 2, 255])))
        #expect(try await messages.next() == .binary(Data([0, 1, 2, 255])))
        struct Quote: Codable, Equatable {
            let symbol: String
            let price: Double
        }
        try await channel.send(json: Quote(symbol: "ACME", price: 10.5))
        #expect(try #require(try await messages.next()).decode(Quote.self) == Quote(symbol: "ACME", price: 10.5))
        await channel.close()
        #expect(try await messages.next() == nil)
    }

    @Test("a message the server sends in fragments arrives whole")
    func fragmented() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let channel = try await client.channel(endpoint("/fragmented"))
        let text = String(repeating: "abcdefghij", count: 1000)
        try await channel.send(.text(text))
        var messages = channel.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text(text))
        await channel.close()
    }

    @Test("a 3 MiB message arrives whole under a 4 MiB limit, and one goes out and back")
    func large() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let size = 3 << 20
        let channel = try await client.channel(
            endpoint("/large", query: ["size": "\(size)"]),
            configuration: ChannelConfiguration(maximumMessageSize: 4 << 20)
        )
        var messages = channel.messages.makeAsyncIterator()
        let expected = Data((0..<size).map { UInt8($0 % 251) })
        #expect(try await messages.next() == .binary(expected))
        try await channel.send(.binary(expected))
        #expect(try await messages.next() == .binary(expected))
        await channel.close()
    }

    @Test("a message over the limit ends the messages with limitExceeded; one to send is refused the same way")
    func oversized() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let channel = try await client.channel(
            endpoint("/large", query: ["size": "\(2 << 20)"]),
            configuration: ChannelConfiguration(maximumMessageSize: 1 << 20)
        )
        await #expect(throws: SwitchyardError.self) {
            try await channel.send(.binary(Data(count: (1 << 20) + 1)))
        }
        var messages = channel.messages.makeAsyncIterator()
        let error = await #expect(throws: SwitchyardError.self) { _ = try await messages.next() }
        #expect(error?.code == .limitExceeded)
        await channel.close()
    }

    @Test("a server's close with code 4001 ends the messages with channelClosed carrying the code")
    func serverClose() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let channel = try await client.channel(endpoint("/close", query: ["code": "4001"]))
        try await channel.send(.text("close please"))
        var messages = channel.messages.makeAsyncIterator()
        let error = await #expect(throws: SwitchyardError.self) { _ = try await messages.next() }
        #expect(error?.code == .channelClosed)
        #expect((error?.detail as? ChannelClose)?.code == ChannelClose.Code(4001))
        #expect(channel.closeFrame == ChannelClose(code: ChannelClose.Code(4001), reason: "bye"))
    }

    @Test("a server's close with 1000 ends the messages cleanly")
    func normalClose() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let channel = try await client.channel(endpoint("/close", query: ["code": "1000"]))
        try await channel.send(.text("close please"))
        var messages = channel.messages.makeAsyncIterator()
        #expect(try await messages.next() == nil)
        #expect(channel.closeFrame?.code == .normal)
    }

    @Test("an upgrade refused with 401 is refreshed by the authorization stage and accepted with the new token")
    func refreshedAfter401() async throws {
        let refreshes = Collected<String>()
        let provider = ClosureTokenProvider(current: { "stale" }) { expired in
            refreshes.append(expired)
            return "fresh"
        }
        let id = UUID().uuidString
        let client = try ChannelServers.client(try await ChannelServers.plainURL(), stages: [AuthorizationStage(provider: provider)])
        let channel = try await client.channel(endpoint("/auth", id: id))
        try await channel.send(.text("ping"))
        var messages = channel.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("ping"))
        await channel.close()
        #expect(refreshes.all == ["stale"])
        let record = try await report(id, client: client)
        #expect(record.refused == 1)
        #expect(record.connections == 1)
    }

    @Test("an upgrade refused with 401 that no refresh cures throws httpStatus carrying the answer")
    func refusedUpgrade() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.channel(endpoint("/auth")) }
        #expect(error?.code == .httpStatus)
        #expect(error?.response?.status.code == 401)
        #expect(error?.response?.bodyText == "token expired\n")
    }

    @Test("a server that closes the connection without answering the upgrade fails it with .transport, not the timeout")
    func closedWithoutAnswer() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.channel(endpoint("/vanish"), options: CallOptions(timeout: .seconds(3600)))
        }
        #expect(error?.code == .transport)
    }

    @Test("the handshake is bounded by the call's timeout")
    func handshakeTimeout() async throws {
        // A listening socket that never answers: only the call's timeout can end the upgrade (without
        // it the test runs into the suite's time limit). How soon is not asserted: wall time on a
        // loaded machine is no evidence.
        let silent = try SilentListener()
        defer { silent.close() }
        let client = try ChannelServers.client("http://127.0.0.1:\(silent.port)")
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.channel(endpoint("/echo"), options: CallOptions(timeout: .milliseconds(300)))
        }
        #expect(error?.code == .timeout)
    }
}

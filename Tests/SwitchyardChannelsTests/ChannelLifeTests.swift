import Foundation
import Switchyard
import SwitchyardChannels
import Testing

/// Quick reconnections for the tests: up to 4 in a row, 20 ms apart, no jitter.
private let reconnect = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(20), jitter: 0)

@Suite(
    "Channels: reconnection, heartbeats, cancellation and backpressure (Python websockets server)",
    .enabled(if: ChannelServers.enabled, "python3 with websockets is needed: pip install websockets"),
    .timeLimit(.minutes(1))
)
struct ChannelLifeTests {
    @Test("an abrupt drop is reconnected through the pipeline and the resubscribe hook runs before messages flow")
    func reconnectsAndResubscribes() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let configuration = ChannelConfiguration(reconnect: reconnect) { channel in
            try await channel.send(.text("subscribe prices"))
        }
        let channel = try await client.channel(endpoint("/drop"), configuration: configuration)
        var messages = channel.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("hello 1"))
        try await channel.send(.text("drop"))
        #expect(try await messages.next() == .text("hello 2"))
        #expect(try await messages.next() == .text("subscribed prices 2"))
        #expect(channel.requestID == channel.upgrade.requestID)
        await channel.close()
    }

    @Test("without a reconnection policy an abrupt drop ends the messages with channelClosed, code 1006")
    func dropWithoutPolicy() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let channel = try await client.channel(endpoint("/drop"))
        var messages = channel.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("hello 1"))
        try await channel.send(.text("drop"))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await messages.next() }
        #expect(error?.code == .channelClosed)
        #expect((error?.detail as? ChannelClose)?.code == .abnormal)
    }

    @Test("a server that stops answering pings is taken for dead after the pong timeout and reconnected")
    func pingTimeout() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let configuration = ChannelConfiguration(pingInterval: .milliseconds(200), reconnect: reconnect)
        let channel = try await client.channel(endpoint("/silent"), configuration: configuration)
        var messages = channel.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("hello 1"))
        // The first connection never answers a ping and sends nothing more: only the pong timeout can
        // end it and make the second connection's greeting arrive (otherwise: the suite's time limit).
        #expect(try await messages.next() == .text("hello 2"))
        await channel.close()
    }

    // The 100 ms bound itself is a speed figure, measured by `switchyard-channel-bench` (cancel
    // latency, as the server sees it), not asserted here: a loaded machine would make it flaky. Here:
    // the close frame goes at once, never after a timer — the close timeout is an hour and no pings run,
    // so a cancellation that waited for either would run into the suite's time limit.
    @Test("cancelling by tag sends a close frame (1001) the server sees, without waiting for any timer")
    func cancelByTag() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let id = UUID().uuidString
        let channel = try await client.channel(
            endpoint("/hold", id: id),
            options: CallOptions(tags: ["screen"]),
            configuration: ChannelConfiguration(pingInterval: nil, closeTimeout: .seconds(3600))
        )
        var messages = channel.messages.makeAsyncIterator()
        try await channel.send(.text("x"))
        #expect(try await messages.next() == .text("x"))
        let cancelled = client.cancel(.tag("screen"))
        #expect(cancelled == [channel.requestID])
        let error = await #expect(throws: SwitchyardError.self) { _ = try await messages.next() }
        #expect(error?.code == .cancelled)
        var record = try await report(id, client: client)
        while record.close_code == nil {
            try await Task.sleep(for: .milliseconds(10))
            record = try await report(id, client: client)
        }
        #expect(record.close_code == 1001)
    }

    @Test("cancelling by service and ending the channel's session close it too")
    func cancelByServiceAndSession() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let first = try await client.channel(endpoint("/hold"))
        #expect(client.cancel(.service(.live)) == [first.requestID])
        var messages = first.messages.makeAsyncIterator()
        await #expect(throws: SwitchyardError.self) { _ = try await messages.next() }
        var options = CallOptions()
        options.account = "ada"
        let second = try await client.channel(endpoint("/hold"), options: options)
        await client.endSession(account: "ada")
        var more = second.messages.makeAsyncIterator()
        let error = await #expect(throws: SwitchyardError.self) { _ = try await more.next() }
        #expect(error?.code == .cancelled)
    }

    @Test("a flood faster than the reader waits in a bounded buffer: every message arrives, at most 8 waiting")
    func flood() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let count = 2000
        let channel = try await client.channel(
            endpoint("/flood", query: ["n": "\(count)"]),
            configuration: ChannelConfiguration(inboundBuffer: 8)
        )
        var received = 0
        for try await message in channel.messages {
            #expect(message.data.count == 1024)
            received += 1
            if received % 100 == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(received == count)
        #expect(channel.bufferPeak <= 8)
    }
}

import Foundation
import Switchyard
import SwitchyardChannels
import Testing

@Suite(
    "Channels: sustained back-to-back round trips (Python websockets server)",
    .enabled(if: ChannelServers.enabled, "python3 with websockets is needed: pip install websockets"),
    .timeLimit(.minutes(1))
)
struct ChannelRoundTripTests {
    @Test("500 sequential send-then-echo round trips each get their echo within 5 seconds")
    func sustainedRoundTrips() async throws {
        let client = try ChannelServers.client(try await ChannelServers.plainURL())
        let channel = try await client.channel(endpoint("/echo"))
        var messages = channel.messages.makeAsyncIterator()
        _ = try await messages.next()  // the server's {"headers": …}
        let stalled = Collected<Int>()
        for index in 0..<500 {
            // A round trip that takes longer cancels the channel, which ends the wait with an error.
            let watchdog = Task {
                try await Task.sleep(for: .seconds(5))
                stalled.append(index)
                _ = client.cancel(.id(channel.requestID))
            }
            let text = "round trip \(index) " + String(repeating: "x", count: 64)
            do {
                try await channel.send(.text(text))
                let echo = try await messages.next()
                watchdog.cancel()
                try #require(echo == .text(text), "round trip \(index) was answered with \(String(describing: echo))")
            } catch {
                watchdog.cancel()
                Issue.record("round trip \(index) failed (stalled for 5 s: \(!stalled.all.isEmpty)): \(error)")
                return
            }
        }
        #expect(stalled.all.isEmpty)
        await channel.close()
    }
}

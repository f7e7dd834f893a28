import Testing

@testable import SwitchyardChannels

@Suite("MessageBuffer: hand-offs between a connection and the channel's reader", .timeLimit(.minutes(1)))
struct MessageBufferTests {
    @Test("a message delivered just as the reader starts to wait wakes it: 20,000 hand-offs, none lost")
    func noLostWakeUp() async throws {
        let buffer = MessageBuffer(capacity: 16)
        let count = 20_000
        let (acks, ack) = AsyncStream.makeStream(of: Int.self)
        // The reader takes each message, acknowledges it and at once waits for the next one, while
        // the writer, woken by the acknowledgement, delivers the next: the two race every time.
        let reader = Task {
            defer { ack.finish() }
            for index in 0..<count {
                let message = try await buffer.next()
                try #require(message == .text("\(index)"))
                ack.yield(index)
            }
        }
        var acknowledged = acks.makeAsyncIterator()
        for index in 0..<count {
            // A hand-off that takes longer than 5 seconds is lost: cancelling the reader ends its wait.
            let watchdog = Task {
                try await Task.sleep(for: .seconds(5))
                reader.cancel()
            }
            let delivered = await buffer.deliver(.text("\(index)"))
            let acked = await acknowledged.next()
            watchdog.cancel()
            guard delivered, acked == index else {
                Issue.record("hand-off \(index) was lost: delivered \(delivered), acknowledged \(String(describing: acked))")
                break
            }
        }
        reader.cancel()
        _ = await reader.result
    }
}

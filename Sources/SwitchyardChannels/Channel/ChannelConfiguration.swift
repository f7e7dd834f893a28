public import Switchyard

/// How a ``Channel`` lives: its limits, its heartbeat and whether it reconnects.
///
/// ```swift
/// var life = ChannelConfiguration()
/// life.reconnect = RetryPolicy(maxAttempts: 5)
/// life.resubscribe = { channel in try await channel.send(json: Subscribe(topics: ["prices"])) }
/// let channel = try await client.channel(Quotes(), configuration: life)
/// ```
public struct ChannelConfiguration: Sendable {
    /// The largest message, in bytes, either way; a larger one from the server ends the channel with
    /// `SwitchyardError.Code.limitExceeded` (and close code 1009), a larger one to send is
    /// refused with the same code. 1 MiB by default.
    public var maximumMessageSize: Int
    /// The most messages that wait, received but unread; while they are that many, the channel stops
    /// reading the socket, so a server faster than the reader is held back by TCP, not by memory.
    /// 16 by default.
    public var inboundBuffer: Int
    /// How often a ping is sent; a pong must come back within the same interval, or the connection is
    /// taken for dead and closed (and reconnected under ``reconnect``). `nil` sends no pings. 30
    /// seconds by default.
    public var pingInterval: Duration?
    /// How long a close waits for the server's close frame before the connection is dropped. 5
    /// seconds by default.
    public var closeTimeout: Duration
    /// When and how often a dropped connection is opened again — through the pipeline, as a new call
    /// with a new request id — with the policy's backoff and jitter; at most
    /// `RetryPolicy.maxAttempts` − 1 reconnections in a row without a message between
    /// them. `nil`, the default, never reconnects.
    public var reconnect: RetryPolicy?
    /// Runs after each reconnection, before any message of the new connection is read: send the
    /// subscriptions the server forgot with the old connection. An error it throws ends the channel.
    public var resubscribe: (@Sendable (Channel) async throws -> Void)?

    /// The defaults: 1 MiB messages, 16 waiting, a ping every 30 seconds, no reconnection.
    public init(
        maximumMessageSize: Int = 1 << 20,
        inboundBuffer: Int = 16,
        pingInterval: Duration? = .seconds(30),
        closeTimeout: Duration = .seconds(5),
        reconnect: RetryPolicy? = nil,
        resubscribe: (@Sendable (Channel) async throws -> Void)? = nil
    ) {
        self.maximumMessageSize = maximumMessageSize
        self.inboundBuffer = inboundBuffer
        self.pingInterval = pingInterval
        self.closeTimeout = closeTimeout
        self.reconnect = reconnect
        self.resubscribe = resubscribe
    }
}

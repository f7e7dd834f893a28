/// How a channel was closed: a WebSocket close code (RFC 6455, section 7.4) and its reason.
///
/// ```swift
/// try await channel.close(ChannelClose(code: .normal))
/// if channel.closeFrame?.code == ChannelClose.Code(4001) { … }  // an application's own code
/// ```
public struct ChannelClose: Sendable, Hashable, CustomStringConvertible {
    /// A close code: one of RFC 6455's, or an application's own (4000–4999).
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as sent on the wire.
        public let rawValue: UInt16

        /// A code from its number.
        public init(_ rawValue: UInt16) { self.rawValue = rawValue }

        /// 1000: the purpose the channel was opened for is done.
        public static let normal = Code(1000)
        /// 1001: the endpoint is going away (a server restarting, a cancelled channel).
        public static let goingAway = Code(1001)
        /// 1002: the peer broke the protocol.
        public static let protocolError = Code(1002)
        /// 1003: a kind of message the endpoint does not accept.
        public static let unacceptableData = Code(1003)
        /// 1006: the connection ended without a close frame (never sent on the wire).
        public static let abnormal = Code(1006)
        /// 1007: a message's data did not match its kind (text that is not UTF-8).
        public static let inconsistentData = Code(1007)
        /// 1008: a message broke the endpoint's policy (a sealed message that does not open).
        public static let policyViolation = Code(1008)
        /// 1009: a message was larger than the endpoint accepts.
        public static let messageTooLarge = Code(1009)
        /// 1011: the server met an unexpected condition.
        public static let internalError = Code(1011)
        /// 1012: the server is restarting.
        public static let serviceRestart = Code(1012)
        /// 1013: the server is overloaded; try again later.
        public static let tryAgainLater = Code(1013)

        /// The number.
        public var description: String { "\(rawValue)" }

        /// Whether a channel with a reconnection policy reconnects after a close with this code: the
        /// peer went away, restarts, is overloaded or failed, or the connection dropped.
        var reconnects: Bool {
            [Code.goingAway, .abnormal, .internalError, .serviceRestart, .tryAgainLater].contains(self)
        }
    }

    /// The close code.
    public var code: Code
    /// The reason, as the peer gave it (at most 123 bytes of UTF-8 on the wire).
    public var reason: String?

    /// A close with a code and, optionally, a reason.
    public init(code: Code, reason: String? = nil) {
        self.code = code
        self.reason = reason
    }

    /// The code and reason.
    public var description: String { reason.map { "\(code) \($0)" } ?? "\(code)" }
}

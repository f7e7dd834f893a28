public import Switchyard

extension SwitchyardError.Code {
    /// The server closed the channel with a code other than 1000, or its connection dropped and was
    /// not reconnected; the error's `SwitchyardError.detail` is the ``ChannelClose``.
    public static let channelClosed = SwitchyardError.Code("channelClosed")
}

extension ChannelClose: SwitchyardErrorDetail {}

extension ChannelClose {
    /// The close code; the peer's reason is left out of error descriptions.
    public var summary: String { "close code \(code)" }
}

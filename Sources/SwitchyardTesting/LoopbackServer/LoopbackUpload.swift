import NIOCore

/// An upload the loopback server streams through a receiver of the routes' choosing instead of
/// collecting it (and refusing it past 4 MiB): the receiver sees each body chunk as it arrives and
/// answers once the request has ended.
protocol LoopbackUpload: AnyObject {
    /// Takes the next chunk of the request body.
    func receive(_ chunk: ByteBuffer)
    /// The answer, once the whole body has arrived.
    func finish() -> LoopbackResponse
}

import NIOCore

/// What the connection handler should do once a request has been routed.
enum LoopbackAction {
    /// Write the response now.
    case respond(LoopbackResponse)
    /// Write the response after `delay`, without blocking the event loop.
    case respondAfter(TimeAmount, LoopbackResponse)
    /// Close the connection without writing anything.
    case closeConnection
    /// Write a large response chunk by chunk as the socket accepts it.
    case stream(BlobStream)
    /// Write a response piece by piece, each flushed on its own, pausing between pieces.
    case paced(PacedStream)
}

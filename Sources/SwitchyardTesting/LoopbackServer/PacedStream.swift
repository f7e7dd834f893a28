import NIOCore
import NIOHTTP1

/// A response the server produces piece by piece — the events of a Server-Sent Events stream, the
/// lines of a JSON Lines feed — sent with chunked transfer coding, each piece flushed as it is
/// written and the next written after ``pace``.
struct PacedStream {
    /// The response status.
    var status: HTTPResponseStatus = .ok
    /// The header fields (the content type among them); no `Content-Length`, as the length is not known.
    var headers: [(name: String, value: String)]
    /// The pieces, in order; each is flushed on its own.
    var pieces: [ByteBuffer]
    /// The wait before each piece after the first.
    var pace: TimeAmount = .zero
    /// When set, the connection closes once this many pieces have been written, without ending the
    /// body: a stream broken off mid-way.
    var dropAfter: Int?

    /// How many pieces are written before the stream ends or the connection is dropped.
    var stop: Int {
        guard let dropAfter, dropAfter >= 0 else { return self.pieces.count }
        return min(dropAfter, self.pieces.count)
    }

    /// The whole body at once, for a server answering in-process.
    var body: ByteBuffer {
        var body = ByteBuffer()
        for var piece in self.pieces { body.writeBuffer(&piece) }
        return body
    }
}

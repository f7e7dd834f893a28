import NIOCore
import NIOHTTP1

/// A large response the connection handler writes chunk by chunk as the socket accepts it, so the
/// server's memory stays flat whatever the size: the bytes of ``BlobContent`` from `start` to `end`.
struct BlobStream {
    /// The response status (200, or 206 for a range).
    var status: HTTPResponseStatus
    /// Header fields besides `Content-Length`.
    var headers: [(name: String, value: String)]
    /// The first byte sent (absolute offset in the blob).
    var start: Int64
    /// One past the last byte sent.
    var end: Int64
    /// The blob's version.
    var version: Int
    /// When set, a transfer from the first byte closes the connection once the bytes before this
    /// offset have been sent; a resumed transfer (a range) is served whole.
    var dropAt: Int64?
    /// When set, the wait after each chunk: a slow transfer.
    var pace: TimeAmount?
    /// When set, the tag under which the server records how far the stream got and whether its
    /// connection closed before the end (read back from `/watch/{tag}`).
    var watch: String?

    /// The chunk size written at a time.
    static let chunkSize = 256 << 10

    /// Where the handler stops: `end`, or `dropAt` when the connection is to be dropped in this range.
    var stop: Int64 {
        if let dropAt, start == 0, dropAt > 0, dropAt < end { return dropAt }
        return end
    }

    /// The next chunk from `position`, at most ``chunkSize`` and never past ``stop``.
    func chunk(at position: Int64, allocator: ByteBufferAllocator) -> ByteBuffer {
        let count = Int(min(Int64(Self.chunkSize), stop - position))
        var buffer = allocator.buffer(capacity: count)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { pointer in
            BlobContent.fill(UnsafeMutableRawBufferPointer(rebasing: pointer[0..<count]), from: position, version: version)
            return count
        }
        return buffer
    }
}

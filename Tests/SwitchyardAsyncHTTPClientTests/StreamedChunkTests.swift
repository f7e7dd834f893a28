import Foundation
import NIOCore
import Testing

@testable import SwitchyardAsyncHTTPClient

/// A streamed answer's chunks become `Data` over SwiftNIO's storage only when that keeps no more than
/// twice their bytes alive; otherwise they are copied.
@Suite("AsyncHTTPClient transport: streamed chunks as Data")
struct StreamedChunkTests {
    /// A buffer of `capacity` bytes holding `count` bytes of a pattern, from `offset` on.
    private func buffer(capacity: Int, count: Int, offset: Int = 0) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: capacity)
        buffer.writeBytes((0..<(offset + count)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        buffer.moveReaderIndex(forwardBy: offset)
        return buffer
    }

    /// Whether `data` reads the buffer's own bytes (not a copy of them).
    private func sharesStorage(_ data: Data, _ buffer: ByteBuffer) -> Bool {
        let chunk = buffer.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        return data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } == chunk
    }

    @Test("a large chunk that fills its read buffer is not copied")
    func largeChunkShared() {
        let chunk = buffer(capacity: 48 << 10, count: 48 << 10)
        let data = AsyncHTTPClientTransport.streamedData(chunk)
        #expect(sharesStorage(data, chunk))
        #expect(data == Data(chunk.readableBytesView))
    }

    @Test("a large chunk that is a small part of a larger read buffer is copied")
    func largeSliceCopied() {
        // 20 KiB readable at the end of a 64 KiB storage: sharing would keep 3.2 times its bytes alive.
        let chunk = buffer(capacity: 64 << 10, count: 20 << 10, offset: 44 << 10)
        #expect(chunk.storageCapacity >= 64 << 10)
        let data = AsyncHTTPClientTransport.streamedData(chunk)
        #expect(!sharesStorage(data, chunk))
        #expect(data == Data(chunk.readableBytesView))
    }

    @Test("a small chunk is copied")
    func smallChunkCopied() {
        let chunk = buffer(capacity: 1 << 10, count: 1 << 10)
        let data = AsyncHTTPClientTransport.streamedData(chunk)
        #expect(!sharesStorage(data, chunk))
        #expect(data == Data(chunk.readableBytesView))
    }
}

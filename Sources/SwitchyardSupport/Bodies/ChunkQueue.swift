package import Foundation

/// A first-in, first-out queue of a streamed answer's byte chunks — written and not yet read — that
/// keeps none it has handed out, however long its reader stays behind its writer.
package struct ChunkQueue: Sendable {
    private var chunks: [Data] = []
    private var head = 0
    /// The bytes queued.
    package private(set) var byteCount = 0

    package init() {}

    /// The array slots held, read or not: what a test checks stays bounded.
    package var slotCount: Int { chunks.count }

    /// Queues a chunk.
    package mutating func append(_ chunk: Data) {
        chunks.append(chunk)
        byteCount += chunk.count
    }

    /// The oldest chunk, taken out of the queue; `nil` when it is empty.
    package mutating func popFirst() -> Data? {
        guard head < chunks.count else { return nil }
        // Taken out of the array, so a chunk read is never kept.
        let chunk = chunks[head]
        chunks[head] = Data()
        head += 1
        byteCount -= chunk.count
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= chunks.count {
            // A reader that never empties the queue (its writer keeps ahead of it) still leaves the
            // array no longer than twice what is queued.
            chunks.removeSubrange(0..<head)
            head = 0
        }
        return chunk
    }

    /// Drops every chunk queued.
    package mutating func removeAll() {
        self = ChunkQueue()
    }
}

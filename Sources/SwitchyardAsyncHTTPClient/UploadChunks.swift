import Foundation
import NIOCore
import Switchyard

/// A request body handed to AsyncHTTPClient in 64 KiB chunks, reporting upload progress as the
/// client pulls each one — which it does as the connection accepts them.
struct UploadChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// The chunk size.
    static let chunkSize = 64 << 10

    let body: Data
    let observer: TransferObserver

    func makeAsyncIterator() -> Iterator {
        Iterator(body: body, observer: observer)
    }

    struct Iterator: AsyncIteratorProtocol {
        let body: Data
        let observer: TransferObserver
        var offset = 0

        mutating func next() async -> ByteBuffer? {
            if offset == 0 { observer.sent(TransferProgress(completed: 0, total: Int64(body.count))) }
            guard offset < body.count else { return nil }
            let end = Swift.min(offset + UploadChunks.chunkSize, body.count)
            let chunk = ByteBuffer(bytes: body[(body.startIndex + offset)..<(body.startIndex + end)])
            offset = end
            observer.sent(TransferProgress(completed: Int64(end), total: Int64(body.count)))
            return chunk
        }
    }
}

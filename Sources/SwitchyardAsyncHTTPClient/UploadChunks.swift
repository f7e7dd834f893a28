import Foundation
import NIOCore
import SwitchyardCore

/// A request body handed to AsyncHTTPClient in chunks — from memory or from a ``Switchyard/StreamedBody``'s
/// files — reporting upload progress as the client pulls each one, which it does only as the
/// connection accepts them: memory stays constant whatever the body's size.
struct UploadChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// The chunk size.
    static let chunkSize = 64 << 10

    /// Where the bytes come from.
    enum Source: Sendable {
        case memory(Data)
        case streamed(StreamedBody)
    }

    let source: Source
    let observer: TransferObserver?

    var length: Int64 {
        switch source {
        case .memory(let data): Int64(data.count)
        case .streamed(let body): body.length
        }
    }

    func makeAsyncIterator() -> Iterator {
        switch source {
        case .memory(let data): Iterator(source: .memory(data, offset: 0), total: length, observer: observer)
        case .streamed(let body):
            Iterator(source: .reader(StreamedBody.Reader(body: body, chunkSize: Self.chunkSize)), total: length, observer: observer)
        }
    }

    struct Iterator: AsyncIteratorProtocol {
        enum State {
            case memory(Data, offset: Int)
            case reader(StreamedBody.Reader)
        }

        var source: State
        let total: Int64
        let observer: TransferObserver?
        var sent: Int64 = 0
        var begun = false

        mutating func next() async throws -> ByteBuffer? {
            if !begun {
                begun = true
                observer?.sent(TransferProgress(completed: 0, total: total))
            }
            let chunk: ByteBuffer?
            switch source {
            case .memory(let body, let offset):
                guard offset < body.count else { return nil }
                let end = Swift.min(offset + UploadChunks.chunkSize, body.count)
                chunk = ByteBuffer(bytes: body[(body.startIndex + offset)..<(body.startIndex + end)])
                source = .memory(body, offset: end)
            case .reader(var reader):
                chunk = try reader.next().map { ByteBuffer(bytes: $0) }
                source = .reader(reader)
            }
            guard let chunk else { return nil }
            sent += Int64(chunk.readableBytes)
            observer?.sent(TransferProgress(completed: sent, total: total))
            return chunk
        }
    }
}

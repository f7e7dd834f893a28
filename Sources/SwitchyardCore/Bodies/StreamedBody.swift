public import Foundation
import SwitchyardSupport

/// A request body that is sent in chunks — from files and small in-memory pieces — and never held
/// whole in memory: an upload of any size costs a constant amount of memory.
///
/// A streamed body is a list of ``Segment``s read in order. It describes where the bytes are rather
/// than holding them, so it can be read again from the start (a retry re-opens the files), and its
/// length is known before the first byte goes out (`Content-Length`, upload progress).
///
/// ```swift
/// let video = try StreamedBody.file(URL(fileURLWithPath: "/tmp/clip.mp4"))
/// let result = try await client.send(.media, .put, "/clips/7", body: .stream(video, contentType: "video/mp4"))
/// ```
///
/// Stages that need the whole body refuse a streamed one with a clear error rather than skip it:
/// the encryption stage and the signing stage cannot seal or sign bytes they never see. A file that
/// shrinks while it is being sent fails the call with ``SwitchyardError/Code/encoding``.
public struct StreamedBody: Sendable, Hashable {
    /// One piece of the body.
    public enum Segment: Sendable, Hashable {
        /// Bytes held in memory (multipart headers, a small field).
        case bytes(Data)
        /// `length` bytes of the file at `url`, starting at `offset`.
        case file(URL, offset: Int64, length: Int64)

        /// The segment's length in bytes.
        public var length: Int64 {
            switch self {
            case .bytes(let data): Int64(data.count)
            case .file(_, _, let length): length
            }
        }
    }

    /// The segments, in the order they are sent.
    public let segments: [Segment]
    /// The body's total length in bytes.
    public let length: Int64

    /// Creates a body from segments; adjacent in-memory segments are joined.
    public init(segments: [Segment]) {
        var joined: [Segment] = []
        for segment in segments where segment.length > 0 {
            if case .bytes(let more) = segment, case .bytes(let previous)? = joined.last {
                joined[joined.count - 1] = .bytes(previous + more)
            } else {
                joined.append(segment)
            }
        }
        self.segments = joined
        self.length = joined.reduce(0) { $0 + $1.length }
    }

    /// The whole of the file at `url`.
    ///
    /// - Throws: ``SwitchyardError/Code/encoding`` when the file does not exist, is not a regular
    ///   file or cannot be read.
    public static func file(_ url: URL) throws(SwitchyardError) -> StreamedBody {
        StreamedBody(segments: [.file(url, offset: 0, length: try fileSize(of: url))])
    }

    /// The size of the regular file at `url`.
    ///
    /// - Throws: ``SwitchyardError/Code/encoding`` when it is missing, unreadable or not a regular file.
    public static func fileSize(of url: URL) throws(SwitchyardError) -> Int64 {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw SwitchyardError(
                code: .encoding,
                message: "the file \(url.path) cannot be read for upload: it does not exist or is not readable",
                underlyingError: error
            )
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular, let size = attributes[.size] as? NSNumber else {
            throw SwitchyardError(code: .encoding, message: "\(url.path) is not a regular file, so it cannot be uploaded")
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw SwitchyardError(code: .encoding, message: "the file \(url.path) is not readable")
        }
        return size.int64Value
    }

    /// Whether the body is exactly one whole file (transports that upload from a path use it directly).
    public var wholeFile: URL? {
        guard segments.count == 1, case .file(let url, 0, let length) = segments[0], (try? Self.fileSize(of: url)) == length else {
            return nil
        }
        return url
    }

    /// A short, stable description of the body for same-request identities and logs: its length and
    /// where each segment comes from (file paths and ranges, a hash of in-memory bytes).
    public var identity: String {
        var parts = ["\(length)"]
        for segment in segments {
            switch segment {
            case .bytes(let data):
                parts.append("b\(data.count):\(FNV1a.hash(data))")
            case .file(let url, let offset, let length):
                parts.append("f\(url.path)@\(offset)+\(length)")
            }
        }
        return parts.joined(separator: ",")
    }

    /// The bytes in chunks of at most `chunkSize`, read as they are pulled.
    public func chunks(size chunkSize: Int = 64 << 10) -> Chunks {
        Chunks(body: self, chunkSize: max(1, chunkSize))
    }

    /// Writes the whole body to `destination` (replacing it) in chunks, without holding it in memory.
    ///
    /// The file is created private to the user (`0600`), whatever the umask, and is removed again when
    /// the body cannot be written whole: a failure leaves nothing behind.
    ///
    /// - Throws: ``SwitchyardError/Code/encoding`` when a source cannot be read, or
    ///   ``SwitchyardError/Code/storage`` when the destination cannot be written.
    public func write(to destination: URL) throws(SwitchyardError) {
        let output: FileHandle
        do { output = try PrivateFiles.create(destination, replacing: true) } catch {
            throw SwitchyardError(code: .storage, message: "cannot create \(destination.path) to stage an upload", underlyingError: error)
        }
        var complete = false
        defer {
            try? output.close()
            if !complete { try? FileManager.default.removeItem(at: destination) }
        }
        var reader = Reader(body: self, chunkSize: 256 << 10)
        while let chunk = try reader.next() {
            do { try output.write(contentsOf: chunk) } catch {
                throw SwitchyardError(
                    code: .storage,
                    message: "cannot write \(destination.path) to stage an upload",
                    underlyingError: error
                )
            }
        }
        complete = true
    }

    /// The chunks of a streamed body, as an async sequence.
    public struct Chunks: AsyncSequence, Sendable {
        /// A chunk of bytes.
        public typealias Element = Data
        let body: StreamedBody
        let chunkSize: Int

        /// Starts reading from the beginning.
        public func makeAsyncIterator() -> Iterator {
            Iterator(reader: Reader(body: body, chunkSize: chunkSize))
        }

        /// Reads the next chunk when asked.
        public struct Iterator: AsyncIteratorProtocol {
            var reader: Reader

            /// The next chunk, or `nil` at the end.
            public mutating func next() async throws -> Data? {
                try reader.next()
            }
        }
    }

    /// A synchronous reader over the segments; opens one file at a time and closes it at its end.
    public struct Reader {
        private let body: StreamedBody
        private let chunkSize: Int
        private var index = 0
        private var consumed: Int64 = 0
        private var handle: FileHandle?

        /// Creates a reader that starts at the first byte.
        public init(body: StreamedBody, chunkSize: Int = 64 << 10) {
            self.body = body
            self.chunkSize = max(1, chunkSize)
        }

        /// The next chunk of at most the chunk size, or `nil` at the end.
        ///
        /// - Throws: ``SwitchyardError/Code/encoding`` when a file cannot be opened or ends early.
        public mutating func next() throws(SwitchyardError) -> Data? {
            while index < body.segments.count {
                let segment = body.segments[index]
                let remaining = segment.length - consumed
                guard remaining > 0 else {
                    try? handle?.close()
                    handle = nil
                    index += 1
                    consumed = 0
                    continue
                }
                let count = Int(min(Int64(chunkSize), remaining))
                switch segment {
                case .bytes(let data):
                    let start = data.startIndex + Int(consumed)
                    consumed += Int64(count)
                    return data.subdata(in: start..<(start + count))
                case .file(let url, let offset, _):
                    let chunk = try read(count, from: url, at: offset + consumed)
                    consumed += Int64(chunk.count)
                    return chunk
                }
            }
            return nil
        }

        private mutating func read(_ count: Int, from url: URL, at position: Int64) throws(SwitchyardError) -> Data {
            do {
                if handle == nil {
                    let opened = try FileHandle(forReadingFrom: url)
                    try opened.seek(toOffset: UInt64(position))
                    handle = opened
                }
                let chunk = try handle?.read(upToCount: count) ?? Data()
                guard !chunk.isEmpty else {
                    throw SwitchyardError(
                        code: .encoding,
                        message: "the file \(url.path) ended at byte \(position), before the length declared for the upload"
                    )
                }
                return chunk
            } catch let error as SwitchyardError {
                throw error
            } catch {
                throw SwitchyardError(
                    code: .encoding,
                    message: "the file \(url.path) cannot be read for upload: \(error.localizedDescription)",
                    underlyingError: error
                )
            }
        }
    }
}

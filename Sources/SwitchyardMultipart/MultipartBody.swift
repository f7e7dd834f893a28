public import Foundation
import MultipartKit
import NIOCore
import NIOHTTP1
public import SwitchyardCore

/// A `multipart/form-data` body (RFC 7578): text fields and files, from memory or from a path,
/// serialised by vapor/multipart-kit.
///
/// ```swift
/// var form = MultipartBody()
/// form.append(field: "title", "Holiday")
/// try form.append(fileAt: URL(fileURLWithPath: "/tmp/beach.jpg"), field: "photo")
/// let result = try await client.send(.media, .post, "/upload", body: try form.streamedRequestBody())
/// ```
///
/// ``requestBody(boundary:)`` serialises the form in memory with vapor/multipart-kit;
/// ``streamedRequestBody(boundary:)`` streams file parts from disk as they are sent, for files of any size.
///
/// Names and file names are written as quoted strings with `"`, CR and LF percent-encoded, as RFC
/// 7578 §4.2 recommends; non-ASCII names are sent as UTF-8. The boundary is random and checked
/// against every part, so it can never occur inside one.
public struct MultipartBody: Sendable {
    /// One part.
    public struct Part: Sendable {
        /// Where a part's content is.
        public enum Content: Sendable {
            /// Bytes in memory.
            case data(Data)
            /// The whole file at a path, read only when the body is encoded or streamed.
            case file(URL, length: Int64)
        }

        /// The form field's name.
        public let name: String
        /// The file name, for a file part.
        public let fileName: String?
        /// The part's media type; `nil` for a text field (which then needs none).
        public let contentType: String?
        /// The content.
        public let content: Content

        /// The content's length in bytes.
        public var length: Int64 {
            switch content {
            case .data(let data): Int64(data.count)
            case .file(_, let length): length
            }
        }
    }

    /// The parts, in order.
    public private(set) var parts: [Part] = []

    /// Creates an empty body.
    public init() {}

    /// Appends a text field.
    public mutating func append(field name: String, _ value: String) {
        parts.append(Part(name: name, fileName: nil, contentType: nil, content: .data(Data(value.utf8))))
    }

    /// Appends a file from memory.
    public mutating func append(file data: Data, field name: String, fileName: String, contentType: String? = nil) {
        parts.append(
            Part(
                name: name,
                fileName: fileName,
                contentType: contentType ?? Self.mediaType(forExtension: (fileName as NSString).pathExtension),
                content: .data(data)
            )
        )
    }

    /// Appends the file at `url`; its name and media type come from the path unless given. The file
    /// is read only when the body is encoded (``encoded(boundary:)``) or, without ever being held in
    /// memory, as it is sent (``streamedBody(boundary:)``).
    ///
    /// - Throws: ``Switchyard/SwitchyardError/Code/encoding`` when the file is missing, unreadable or
    ///   not a regular file.
    public mutating func append(
        fileAt url: URL,
        field name: String,
        fileName: String? = nil,
        contentType: String? = nil
    ) throws(SwitchyardError) {
        let length = try StreamedBody.fileSize(of: url)
        let fileName = fileName ?? url.lastPathComponent
        parts.append(
            Part(
                name: name,
                fileName: fileName,
                contentType: contentType ?? Self.mediaType(forExtension: (fileName as NSString).pathExtension),
                content: .file(url, length: length)
            )
        )
    }

    /// The serialised body in memory and its `Content-Type` (with the boundary), written by
    /// vapor/multipart-kit. File parts are read into memory: for large files use ``streamedBody(boundary:)``.
    ///
    /// - Throws: ``Switchyard/SwitchyardError/Code/encoding`` when the boundary occurs in a part or a
    ///   file cannot be read.
    public func encoded(boundary: String? = nil) throws(SwitchyardError) -> (data: Data, contentType: String) {
        let contents = try parts.map { part throws(SwitchyardError) -> Data in
            switch part.content {
            case .data(let data): return data
            case .file(let url, _):
                do { return try Data(contentsOf: url, options: .mappedIfSafe) } catch {
                    throw SwitchyardError(
                        code: .encoding,
                        message: "the file \(url.path) cannot be read for upload: \(error.localizedDescription)",
                        underlyingError: error
                    )
                }
            }
        }
        let boundary = boundary ?? Self.freshBoundary(avoiding: contents)
        let marker = Data(("--" + boundary).utf8)
        if let index = contents.firstIndex(where: { $0.range(of: marker) != nil }) {
            throw SwitchyardError(code: .encoding, message: "the boundary occurs inside part '\(parts[index].name)'")
        }
        let serialized: [MultipartPart] = zip(parts, contents).map { part, content in
            MultipartPart(headers: Self.headers(of: part), body: ByteBuffer(bytes: content))
        }
        var buffer = ByteBuffer()
        do {
            try MultipartSerializer().serialize(parts: serialized, boundary: boundary, into: &buffer)
        } catch {
            throw SwitchyardError(code: .encoding, message: "the multipart body cannot be serialised: \(error)", underlyingError: error)
        }
        return (Data(buffer.readableBytesView), "multipart/form-data; boundary=\(boundary)")
    }

    /// The body for a call (``Switchyard/RequestBody``), serialised in memory.
    public func requestBody(boundary: String? = nil) throws(SwitchyardError) -> RequestBody {
        let (data, contentType) = try encoded(boundary: boundary)
        return .data(data, contentType: contentType)
    }

    /// The body as a ``Switchyard/StreamedBody``: part headers and fields in memory, files streamed
    /// from disk as the body is sent, so an upload of any size costs constant memory. The bytes are
    /// the same as ``encoded(boundary:)``'s.
    ///
    /// In-memory parts are checked for the boundary. Files are checked only when you choose the
    /// boundary (a pass over each file); a random boundary — 24 characters from 36, about 2¹²⁴
    /// possibilities — is not, as browsers and curl do not either.
    ///
    /// - Throws: ``Switchyard/SwitchyardError/Code/encoding`` when the boundary occurs in a part.
    public func streamedBody(boundary: String? = nil) throws(SwitchyardError) -> (body: StreamedBody, contentType: String) {
        let inMemory = parts.compactMap { part -> Data? in if case .data(let data) = part.content { data } else { nil } }
        let chosen = boundary
        let boundary = boundary ?? Self.freshBoundary(avoiding: inMemory)
        let marker = Data(("--" + boundary).utf8)
        var segments: [StreamedBody.Segment] = []
        for part in parts {
            var head = "--\(boundary)\r\n"
            for (name, value) in Self.headers(of: part) { head += "\(name): \(value)\r\n" }
            segments.append(.bytes(Data((head + "\r\n").utf8)))
            switch part.content {
            case .data(let data):
                if data.range(of: marker) != nil {
                    throw SwitchyardError(code: .encoding, message: "the boundary occurs inside part '\(part.name)'")
                }
                segments.append(.bytes(data))
            case .file(let url, let length):
                if chosen != nil, try Self.file(url, contains: marker) {
                    throw SwitchyardError(code: .encoding, message: "the boundary occurs inside part '\(part.name)'")
                }
                segments.append(.file(url, offset: 0, length: length))
            }
            segments.append(.bytes(Data("\r\n".utf8)))
        }
        segments.append(.bytes(Data("--\(boundary)--\r\n".utf8)))
        return (StreamedBody(segments: segments), "multipart/form-data; boundary=\(boundary)")
    }

    /// The body for a call, streamed (``streamedBody(boundary:)``).
    public func streamedRequestBody(boundary: String? = nil) throws(SwitchyardError) -> RequestBody {
        let (body, contentType) = try streamedBody(boundary: boundary)
        return .stream(body, contentType: contentType)
    }

    /// A part's header fields, in the order they are written.
    static func headers(of part: Part) -> HTTPHeaders {
        var disposition = "form-data; name=\"\(Self.quoted(part.name))\""
        if let fileName = part.fileName { disposition += "; filename=\"\(Self.quoted(fileName))\"" }
        var headers = HTTPHeaders([("Content-Disposition", disposition)])
        if let type = part.contentType { headers.add(name: "Content-Type", value: type) }
        return headers
    }

    /// Whether the file at `url` contains `marker`, read in 1 MiB pieces that overlap by the marker's length.
    static func file(_ url: URL, contains marker: Data) throws(SwitchyardError) -> Bool {
        var reader = StreamedBody.Reader(body: try StreamedBody.file(url), chunkSize: 1 << 20)
        var tail = Data()
        while let chunk = try reader.next() {
            let window = tail + chunk
            if window.range(of: marker) != nil { return true }
            tail = window.suffix(marker.count - 1)
        }
        return false
    }

    /// `"`, CR and LF percent-encoded (RFC 7578 §4.2).
    static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A random boundary that no in-memory content contains.
    static func freshBoundary(avoiding contents: [Data]) -> String {
        while true {
            let boundary = "switchyard-" + (0..<24).map { _ in String("0123456789abcdefghijklmnopqrstuvwxyz".randomElement()!) }.joined()
            let marker = Data(("--" + boundary).utf8)
            if !contents.contains(where: { $0.range(of: marker) != nil }) { return boundary }
        }
    }

    /// A media type for common file extensions; `application/octet-stream` otherwise.
    static func mediaType(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "heic": "image/heic"
        case "pdf": "application/pdf"
        case "json": "application/json"
        case "txt": "text/plain; charset=utf-8"
        case "csv": "text/csv"
        case "mp4": "video/mp4"
        case "mov": "video/quicktime"
        case "zip": "application/zip"
        default: "application/octet-stream"
        }
    }
}

public import Switchyard
public import Foundation
import MultipartKit
import NIOCore
import NIOHTTP1

/// A `multipart/form-data` body (RFC 7578): text fields and files, from memory or from a path,
/// serialised by vapor/multipart-kit.
///
/// ```swift
/// var form = MultipartBody()
/// form.append(field: "title", "Holiday")
/// try form.append(fileAt: URL(fileURLWithPath: "/tmp/beach.jpg"), field: "photo")
/// let result = try await client.send(.media, .post, "/upload", body: try form.requestBody())
/// ```
///
/// Names and file names are written as quoted strings with `"`, CR and LF percent-encoded, as RFC
/// 7578 §4.2 recommends; non-ASCII names are sent as UTF-8. The boundary is random and checked
/// against every part, so it can never occur inside one.
public struct MultipartBody: Sendable {
    /// One part.
    public struct Part: Sendable {
        /// The form field's name.
        public let name: String
        /// The file name, for a file part.
        public let fileName: String?
        /// The part's media type; `nil` for a text field (which then needs none).
        public let contentType: String?
        /// The content.
        public let data: Data
    }

    /// The parts, in order.
    public private(set) var parts: [Part] = []

    /// Creates an empty body.
    public init() {}

    /// Appends a text field.
    public mutating func append(field name: String, _ value: String) {
        parts.append(Part(name: name, fileName: nil, contentType: nil, data: Data(value.utf8)))
    }

    /// Appends a file from memory.
    public mutating func append(file data: Data, field name: String, fileName: String, contentType: String? = nil) {
        parts.append(Part(name: name, fileName: fileName, contentType: contentType ?? Self.mediaType(forExtension: (fileName as NSString).pathExtension), data: data))
    }

    /// Appends a file read from `url`; its name and media type come from the path unless given.
    ///
    /// - Throws: ``Switchyard/SwitchyardError/Code/encoding`` when the file cannot be read.
    public mutating func append(fileAt url: URL, field name: String, fileName: String? = nil, contentType: String? = nil) throws(SwitchyardError) {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw SwitchyardError(code: .encoding, message: "the file \(url.path) cannot be read for upload: \(error.localizedDescription)", underlyingError: error)
        }
        append(file: data, field: name, fileName: fileName ?? url.lastPathComponent, contentType: contentType)
    }

    /// The serialised body and its `Content-Type` (with the boundary).
    public func encoded(boundary: String? = nil) throws(SwitchyardError) -> (data: Data, contentType: String) {
        let boundary = boundary ?? Self.freshBoundary(avoiding: parts)
        if let collision = parts.first(where: { $0.data.range(of: Data(("--" + boundary).utf8)) != nil }) {
            throw SwitchyardError(code: .encoding, message: "the boundary occurs inside part '\(collision.name)'")
        }
        let serialized: [MultipartPart] = parts.map { part in
            var disposition = "form-data; name=\"\(Self.quoted(part.name))\""
            if let fileName = part.fileName { disposition += "; filename=\"\(Self.quoted(fileName))\"" }
            var headers = HTTPHeaders([("Content-Disposition", disposition)])
            if let type = part.contentType { headers.add(name: "Content-Type", value: type) }
            return MultipartPart(headers: headers, body: ByteBuffer(bytes: part.data))
        }
        var buffer = ByteBuffer()
        do {
            try MultipartSerializer().serialize(parts: serialized, boundary: boundary, into: &buffer)
        } catch {
            throw SwitchyardError(code: .encoding, message: "the multipart body cannot be serialised: \(error)", underlyingError: error)
        }
        return (Data(buffer.readableBytesView), "multipart/form-data; boundary=\(boundary)")
    }

    /// The body for a call (``Switchyard/RequestBody``).
    public func requestBody(boundary: String? = nil) throws(SwitchyardError) -> RequestBody {
        let (data, contentType) = try encoded(boundary: boundary)
        return .data(data, contentType: contentType)
    }

    /// `"`, CR and LF percent-encoded (RFC 7578 §4.2).
    static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A random boundary that no part contains.
    static func freshBoundary(avoiding parts: [Part]) -> String {
        while true {
            let boundary = "switchyard-" + (0..<24).map { _ in String("0123456789abcdefghijklmnopqrstuvwxyz".randomElement()!) }.joined()
            let marker = Data(("--" + boundary).utf8)
            if !parts.contains(where: { $0.data.range(of: marker) != nil }) { return boundary }
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

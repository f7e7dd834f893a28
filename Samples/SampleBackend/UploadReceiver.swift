import Foundation
import MultipartKit
import NIOCore
import NIOHTTP1
import SwitchyardCrypto

/// Takes an upload's body chunk by chunk — hashing it, and for `multipart/form-data` parsing it with
/// vapor/multipart-kit's streaming parser — and reports what arrived, holding no more than a chunk.
final class UploadReceiver: LoopbackUpload {
    /// The receiver for `POST|PUT /files/upload`; `nil` for any other request, whose body is collected.
    static func receiver(for head: HTTPRequestHead) -> UploadReceiver? {
        let isUpload =
            (head.method == .POST || head.method == .PUT) && (head.uri == "/files/upload" || head.uri.hasPrefix("/files/upload?"))
        return isUpload ? UploadReceiver(head: head) : nil
    }

    private struct PartReport {
        var headers: [(String, String)] = []
        var size = 0
        let hasher = SHA256Hasher()
    }

    private let hasher = SHA256Hasher()
    private var total = 0
    private let parser: MultipartParser?
    private var current = PartReport()
    private var parts: [JSONValue] = []
    private var failure: String?

    init(head: HTTPRequestHead) {
        let contentType = head.headers.first(name: "content-type") ?? ""
        guard contentType.lowercased().hasPrefix("multipart/form-data"), let boundary = Self.boundary(in: contentType) else {
            parser = nil
            return
        }
        let parser = MultipartParser(boundary: boundary)
        self.parser = parser
        parser.onHeader = { [unowned self] name, value in current.headers.append((name, value)) }
        parser.onBody = { [unowned self] body in
            current.size += body.readableBytes
            body.withUnsafeReadableBytes { current.hasher.update($0) }
        }
        parser.onPartComplete = { [unowned self] in
            parts.append(report(current))
            current = PartReport()
        }
    }

    /// Feeds the next chunk of the body.
    func receive(_ chunk: ByteBuffer) {
        total += chunk.readableBytes
        chunk.withUnsafeReadableBytes { hasher.update($0) }
        guard let parser, failure == nil else { return }
        do { try parser.execute(chunk) } catch { failure = "the multipart body is malformed: \(error)" }
    }

    /// The report, once the body has ended.
    func finish() -> LoopbackResponse {
        if let failure { return .json(.object([("error", .string(failure))]), status: .badRequest) }
        var fields: [(String, JSONValue)] = [("bytes", .int(total)), ("sha256", .string(Digest.hex(hasher.finalize())))]
        if parser != nil { fields.append(("parts", .array(parts))) }
        return .json(.object(fields))
    }

    private func report(_ part: PartReport) -> JSONValue {
        let disposition = part.headers.first { $0.0.lowercased() == "content-disposition" }?.1 ?? ""
        let type = part.headers.first { $0.0.lowercased() == "content-type" }?.1
        return .object([
            ("name", .optional(Self.parameter("name", in: disposition))),
            ("filename", .optional(Self.parameter("filename", in: disposition))),
            ("type", .optional(type)), ("size", .int(part.size)), ("sha256", .string(Digest.hex(part.hasher.finalize()))),
        ])
    }

    /// The `boundary` parameter of a media type.
    static func boundary(in contentType: String) -> String? {
        parameter("boundary", in: contentType)
    }

    /// A `name=value` or `name="value"` parameter, with RFC 7578's `%22`, `%0D`, `%0A` and `%25` undone.
    static func parameter(_ name: String, in header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value.replacingOccurrences(of: "%22", with: "\"").replacingOccurrences(of: "%0D", with: "\r")
                .replacingOccurrences(of: "%0A", with: "\n").replacingOccurrences(of: "%25", with: "%")
        }
        return nil
    }
}

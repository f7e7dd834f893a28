public import Foundation
public import Switchyard
import SwitchyardCrypto

/// The body of a queued call, in a form that survives a restart: bytes, or a reference to a file
/// with the size and SHA-256 it had when the call was queued.
///
/// A file that is gone or changed by the time its call drains makes the call a dead letter
/// (``SwitchyardError/Code/fileChanged``), never a partial or different upload.
public struct OutboxBody: Sendable, Hashable {
    enum Content: Hashable, Codable {
        case bytes(Data)
        case file(path: String, size: Int64, sha256: Data)
    }

    let content: Content
    /// The `Content-Type` sent with the body; `nil` sends none.
    public let contentType: String?

    /// A JSON body, encoded now with sorted keys (as the service's encoder would when it keeps the
    /// default key order).
    ///
    /// - Throws: ``SwitchyardError/Code/encoding`` when the value cannot be encoded.
    public static func json(_ value: some Encodable) throws(SwitchyardError) -> OutboxBody {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return OutboxBody(content: .bytes(try encoder.encode(value)), contentType: "application/json")
        } catch {
            throw SwitchyardError(code: .encoding, message: "cannot encode the queued call's JSON body", underlyingError: error)
        }
    }

    /// Raw bytes with a content type.
    public static func data(_ data: Data, contentType: String?) -> OutboxBody {
        OutboxBody(content: .bytes(data), contentType: contentType)
    }

    /// The file at `url`, uploaded when the call drains; its size and SHA-256 are taken now.
    ///
    /// - Throws: ``SwitchyardError/Code/storage`` when the file cannot be read.
    public static func file(_ url: URL, contentType: String = "application/octet-stream") throws(SwitchyardError) -> OutboxBody {
        let (size, digest) = try fingerprint(of: url)
        return OutboxBody(content: .file(path: url.path, size: size, sha256: digest), contentType: contentType)
    }

    /// The size and SHA-256 of the file at `url`, read in 1 MiB pieces.
    static func fingerprint(of url: URL) throws(SwitchyardError) -> (Int64, Data) {
        let hasher = SHA256Hasher()
        var size: Int64 = 0
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                size += Int64(chunk.count)
                chunk.withUnsafeBytes { hasher.update($0) }
            }
        } catch {
            throw SwitchyardError(code: .storage, message: "cannot read the file of a queued upload", underlyingError: error)
        }
        return (size, hasher.finalize())
    }

    /// The request body to send: the bytes, or the file after checking it is the one queued.
    func requestBody() throws(SwitchyardError) -> RequestBody {
        switch content {
        case .bytes(let data):
            return .data(data, contentType: contentType)
        case .file(let path, let size, let sha256):
            let url = URL(fileURLWithPath: path)
            let now: (Int64, Data)
            do {
                now = try Self.fingerprint(of: url)
            } catch {
                throw SwitchyardError(code: .fileChanged, message: "the queued upload's file is gone", underlyingError: error)
            }
            guard now.0 == size, now.1 == sha256 else {
                throw SwitchyardError(code: .fileChanged, message: "the queued upload's file changed after it was queued")
            }
            return try .file(url, contentType: contentType ?? "application/octet-stream")
        }
    }
}

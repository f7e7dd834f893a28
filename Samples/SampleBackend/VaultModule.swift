import NIOCore
import SwitchyardCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The "vault" module under `/vault-api`: every body is encrypted with the `aes-256-gcm` scheme of
/// `Docs/WireFormat.md` under ``SampleBackend/vaultKeyID``; inside, the usual envelope with success
/// code `0`. Plaintext requests with a body are refused.
enum VaultModule {
    static let scheme = EncryptionScheme.aes256GCM

    /// Answers a request below `/vault-api`; `nil` when no route matches.
    static func route(_ request: LoopbackRequest, segments: ArraySlice<Substring>) -> LoopbackResponse? {
        let segments = Array(segments)
        if segments == ["notes"], request.method == .POST {
            return createNote(request)
        }
        if segments.count == 2, segments[0] == "notes", request.isRead {
            guard let id = Int(segments[1]) else {
                return sealed(.envelope(code: 400, msg: "note id must be an integer", status: .badRequest), for: request)
            }
            let note: JSONValue = .object([("id", .int(id)), ("text", .string("Note \(id): 金库里的秘密")), ("pinned", .null)])
            return sealed(.envelope(code: 0, msg: "ok", data: note), for: request)
        }
        return nil
    }

    private static func createNote(_ request: LoopbackRequest) -> LoopbackResponse {
        guard let header = request.head.headers.first(name: EncryptionWireFormat.encryptionHeader.rawName) else {
            return .envelope(code: 400, msg: "vault requests must be encrypted", status: .badRequest)
        }
        let plaintext: Data
        do {
            let (schemeName, keyID) = try EncryptionWireFormat.parseHeader(header)
            guard schemeName == scheme.name, keyID == SampleBackend.vaultKeyID else {
                return .envelope(code: 400, msg: "unknown scheme or key id", status: .badRequest)
            }
            let aad = EncryptionWireFormat.associatedData(
                direction: .request,
                scheme: scheme,
                keyID: keyID,
                method: request.method.rawValue,
                target: request.uri,
                requestNonce: request.head.headers.first(name: EncryptionWireFormat.requestNonceHeader.rawName)
            )
            plaintext = try scheme.open(Data(request.body.readableBytesView), key: SymmetricKey(SampleBackend.vaultKey), aad: aad)
        } catch {
            return .envelope(code: 400, msg: "the body cannot be opened: \(error.code)", status: .badRequest)
        }
        guard let text = try? JSONDecoder().decode(NewNote.self, from: plaintext).text else {
            return sealed(.envelope(code: 400, msg: "body must be a JSON object with a text", status: .badRequest), for: request)
        }
        let note: JSONValue = .object([("id", 7), ("text", .string(text)), ("length", .int(text.count)), ("pinned", .null)])
        return sealed(.envelope(code: 0, msg: "ok", data: note, status: .created), for: request)
    }

    /// The body `POST /vault-api/notes` expects, once opened.
    private struct NewNote: Decodable {
        let text: String
    }

    /// Seals a JSON response for `request`.
    private static func sealed(_ response: LoopbackResponse, for request: LoopbackRequest) -> LoopbackResponse {
        let aad = EncryptionWireFormat.associatedData(
            direction: .response,
            scheme: scheme,
            keyID: SampleBackend.vaultKeyID,
            method: request.method.rawValue,
            target: request.uri,
            requestNonce: request.head.headers.first(name: EncryptionWireFormat.requestNonceHeader.rawName)
        )
        guard let body = try? scheme.seal(Data(response.body.readableBytesView), key: SymmetricKey(SampleBackend.vaultKey), aad: aad) else {
            return .envelope(code: 500, msg: "sealing failed", status: .internalServerError)
        }
        var sealed = response
        sealed.contentType = "application/octet-stream"
        sealed.body = ByteBuffer(bytes: body)
        sealed.extraHeaders = [
            (
                EncryptionWireFormat.encryptionHeader.rawName,
                EncryptionWireFormat.headerValue(scheme: scheme, keyID: SampleBackend.vaultKeyID)
            ),
            (EncryptionWireFormat.contentTypeHeader.rawName, LoopbackResponse.jsonContentType),
        ]
        return sealed
    }
}

import Foundation
import HTTPTypes
public import Switchyard

/// Encrypts request bodies and decrypts response bodies of one service (module).
///
/// Where it goes is the rule of `Docs/WireFormat.md`, *Where the stages go*:
///
/// - With Switchyard's headers (the default framing), every stage that changes the query goes
///   **before** it — common parameters in the query, a sorted-parameter signature placed in the
///   query — because the associated data binds the query as it leaves this stage and the server
///   reads the query from the request line. The canonical-request signature (``SigningStage`` with
///   ``CanonicalRequestSigning``) adds only header fields and goes **after** it, so the ciphertext is
///   what gets signed.
/// - With a legacy framing (``EncryptionFraming/RequestFraming/formField(_:)``,
///   ``EncryptionFraming/RequestFraming/jsonMember(_:)``), the parameters the backend expects beside
///   the ciphertext — common parameters, a sorted-parameter signature — go **after** it (inside), so
///   they travel next to the sealed field instead of being sealed into it.
/// - Envelope checks, null stripping and reformers go before it: on the way back they run after it
///   and see the plaintext.
///
/// It runs on every attempt: a retry is sealed again with a fresh nonce.
///
/// ```swift
/// let ring = try KeyRing(keyID: "k1", key: key)
/// stages: [EnvelopeStage(...), CommonParametersStage(...), EncryptionStage(keyRing: ring), SigningStage(keyRing: ring)]
/// ```
///
/// The exact bytes are documented in `Docs/WireFormat.md`.
///
/// A backend whose endpoints use different keys or schemes — three legacy endpoints, each with its
/// own — is one service with one stage per key or scheme, each under its own ``id`` and opt-in, and
/// each endpoint enabling the one it speaks:
///
/// ```swift
/// stages: [Envelope(...),
///          EncryptionStage(scheme: .legacyAESECBBase64, keyRing: orders, framing: form, id: "OrdersCrypto").optIn(),
///          EncryptionStage(scheme: .legacyAESCBCKeyIVBase64, keyRing: users, framing: form, id: "UsersCrypto").optIn()]
///
/// struct ListOrders: Endpoint { var options: CallOptions { CallOptions(enabledStages: ["OrdersCrypto"]) } … }
/// ```
public struct EncryptionStage: CredentialBearingStage {
    /// What to do with a response that is not encrypted.
    public enum ResponsePolicy: Sendable, Hashable {
        /// A `2xx` that does not carry a sealed body that opens, in the stage's framing, fails the call
        /// with ``Switchyard/SwitchyardError/Code/crypto`` (the error's `response` is the answer as it
        /// arrived, marked ``Switchyard/Response/isUnverified``): a plaintext or empty body, or — with
        /// ``EncryptionFraming/ResponseFraming/envelopeMember(_:)`` — an envelope that is not strict
        /// JSON, names the member twice, or has it `null` or missing. Only a `204`, a `205`, a `304`
        /// and an answer to `HEAD` may come without a body (and, with wire format 1, any empty `2xx`). A
        /// plaintext error status passes on as an HTTP status, marked ``Switchyard/Response/isUnverified``.
        case requireEncrypted
        /// Responses with nothing sealed in them — a plaintext body with Switchyard's headers, an
        /// empty body, an envelope without its sealed member — are passed on unchanged. A body or
        /// member that is sealed must still open, and an envelope that is ambiguous about its sealed
        /// member (an object on the way names it twice, or names any member twice with a `null`) is
        /// refused as under ``requireEncrypted``: one reader would take its ciphertext for the answer.
        case acceptPlaintext
    }

    /// The scheme used to seal requests (responses must use the same).
    public let scheme: EncryptionScheme
    /// The service's keys.
    public let keyRing: KeyRing
    /// What to do with plaintext responses.
    public let responsePolicy: ResponsePolicy
    /// The wire format's version: ``EncryptionWireFormat/Version/v2`` unless a server speaks only v1.
    public let wireFormat: EncryptionWireFormat.Version
    /// Where the ciphertext travels: with Switchyard's headers (the default), or in a legacy backend's
    /// framing with no header of ours on the wire.
    public let framing: EncryptionFraming

    /// ``StageID/encryption`` unless the stage was created with another id: calls enable, skip and
    /// blame it by this id, so one service can hold one encryption stage per key or scheme.
    public let id: StageID

    /// The innermost stage that changes the body: every stage that must see plaintext stands outside it.
    public var orderRules: [StageOrderRule] {
        var rules: [StageOrderRule] = [
            .inside(
                .envelope,
                .nullStripping,
                .validation,
                .cache,
                because: "these stages must see plaintext: requests before sealing, answers after opening"
            ),
            .inside(.retry, because: "each attempt must be sealed afresh, with a new nonce"),
            .inside(.logging, strength: .advice, because: "the log shows the plaintext, redacted, not the ciphertext"),
        ]
        switch framing.request {
        case .headers:
            rules.append(.inside(.commonParameters, because: "the associated data binds the query as it leaves encryption"))
        case .formField, .jsonMember:
            rules.append(
                .outside(.commonParameters, strength: .advice, because: "the backend reads the parameters beside the sealed field")
            )
        case .wholeBody:
            break
        }
        return rules
    }

    /// Creates the stage.
    ///
    /// - Parameters:
    ///   - scheme: the scheme; ``EncryptionScheme/aes256GCM`` by default.
    ///   - keyRing: the service's keys.
    ///   - responsePolicy: whether plaintext responses are refused; refused by default.
    ///   - wireFormat: the wire format's version; 2 by default, 1 for servers that speak only it.
    ///   - framing: where the ciphertext travels; Switchyard's headers by default.
    ///   - id: the stage's id; ``StageID/encryption`` by default. Give each encryption stage of a
    ///     service its own id (and register them opt-in) when its endpoints use different keys or schemes.
    public init(
        scheme: EncryptionScheme = .aes256GCM,
        keyRing: KeyRing,
        responsePolicy: ResponsePolicy = .requireEncrypted,
        wireFormat: EncryptionWireFormat.Version = .v2,
        framing: EncryptionFraming = .headers,
        id: StageID = .encryption
    ) {
        self.scheme = scheme
        self.keyRing = keyRing
        self.responsePolicy = responsePolicy
        self.wireFormat = wireFormat
        self.framing = framing
        self.id = id
    }

    /// Seals the request body, passes the request on, opens the response body.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        guard framing == .headers else { return try await interceptFramed(request, context: context, next: next) }
        var request = request
        let target = request.head.path ?? "/"
        // Version 2 binds both bodies to this attempt with a fresh nonce, and names scheme and key id
        // on every request, so the server knows them for the answer to a bodiless one.
        var nonce: String?
        // The fields the stage sets, set together at the end in one pass over the request's fields
        // (``HTTPFields/set(_:)``): in order, as the stage's subscript sets would leave them.
        var fields: [HTTPField] = []
        if wireFormat == .v2 {
            let fresh = try SwitchyardError.crypto { () throws(CryptoError) in try NonceSource.hex(count: 16) }
            nonce = fresh
            fields.reserveCapacity(4)
            fields.append(HTTPField(name: EncryptionWireFormat.requestNonceHeader, value: fresh))
            fields.append(
                HTTPField(
                    name: EncryptionWireFormat.encryptionHeader,
                    value: EncryptionWireFormat.headerValue(scheme: scheme, keyID: keyRing.currentKeyID)
                )
            )
        }
        // A streamed upload is refused (``SwitchyardError/Code/unsupportedBody``): the stage seals whole bodies.
        if let body = try request.bodyBytes(for: id), !body.isEmpty {
            let keyID = keyRing.currentKeyID
            let aad = EncryptionWireFormat.associatedData(
                direction: .request,
                scheme: scheme,
                keyID: keyID,
                method: request.method.rawValue,
                target: target,
                requestNonce: nonce
            )
            request.body = .bytes(
                try SwitchyardError.crypto { () throws(CryptoError) in try scheme.seal(body, key: keyRing.currentKey, aad: aad) }
            )
            let originalType = request.headerFields.value(.contentType)
            // Version 2 named the scheme and the current key id above already, with the same value.
            if wireFormat != .v2 {
                fields.append(
                    HTTPField(
                        name: EncryptionWireFormat.encryptionHeader,
                        value: EncryptionWireFormat.headerValue(scheme: scheme, keyID: keyID)
                    )
                )
            }
            if let originalType {
                fields.append(HTTPField(name: EncryptionWireFormat.contentTypeHeader, value: originalType))
            } else if request.headerFields.contains(EncryptionWireFormat.contentTypeHeader) {
                // No type to keep: any field of the name the app set is removed. The others keep their
                // order, so removing it before the one set below leaves what removing it after would.
                request.headerFields[EncryptionWireFormat.contentTypeHeader] = nil
            }
            fields.append(
                HTTPField(name: .contentType, value: scheme.isBinary ? "application/octet-stream" : "text/plain; charset=us-ascii")
            )
        }
        if !fields.isEmpty { request.headerFields.set(fields) }
        var response = try await next(request, context)
        // An unsealed error status (a gateway's 503 page, an auth proxy's 401, an HTML 500) comes
        // through as what it is — an HTTP status, marked unverified — so the status check and retries
        // see it; a 2xx must be sealed when the service requires it.
        if !(200...299).contains(response.status.code), response.headerFields.value(EncryptionWireFormat.encryptionHeader) == nil {
            response.isUnverified = true
            return response
        }
        if responsePolicy == .requireEncrypted || response.headerFields.value(EncryptionWireFormat.encryptionHeader) != nil {
            // A download written to a file is refused (``SwitchyardError/Code/unsupportedBody``): the
            // stage opens whole bodies, and the file is not accepted.
            _ = try response.bodyBytes(for: id)
        }
        guard let header = response.headerFields.value(EncryptionWireFormat.encryptionHeader) else {
            // Version 2 refuses an empty 2xx too (an attacker on the path can empty a body as easily as
            // replace it), except where HTTP says there is no body: 204, 205, 304 and answers to HEAD.
            let bodiless = [204, 205, 304].contains(response.status.code) || request.method == .head
            if responsePolicy == .requireEncrypted, !response.bytes.isEmpty || (wireFormat == .v2 && !bodiless) {
                throw refusal(of: response, because: "this one is plaintext")
            }
            return response
        }
        let (schemeName, keyID) = try SwitchyardError.crypto { () throws(CryptoError) in try EncryptionWireFormat.parseHeader(header) }
        guard schemeName == scheme.name else {
            throw SwitchyardError(
                code: .crypto,
                message: "the response is encrypted with '\(schemeName)', but this service uses '\(scheme.name)'"
            )
        }
        guard let key = keyRing.key(for: keyID) else {
            throw SwitchyardError(
                code: .crypto,
                message: "the response is sealed with key id '\(keyID)', which is not in the service's key ring"
            )
        }
        let aad = EncryptionWireFormat.associatedData(
            direction: .response,
            scheme: scheme,
            keyID: keyID,
            method: request.method.rawValue,
            target: target,
            requestNonce: nonce
        )
        let body = try response.bodyBytes(for: id)
        response.body = .bytes(try SwitchyardError.crypto { () throws(CryptoError) in try scheme.open(body, key: key, aad: aad) })
        response.headerFields = Self.openedFields(response.headerFields)
        return response
    }

    /// The fields of an opened response: without the encryption header and the original-type header,
    /// whose value (joined when repeated) becomes the `Content-Type`, in the first `Content-Type`'s
    /// place or last, and none when the server sent no original type. What setting the three fields one
    /// by one gives, in one pass: HTTPTypes removes a field by moving the rest of its list each time.
    private static func openedFields(_ fields: HTTPFields) -> HTTPFields {
        let originalType = fields.value(EncryptionWireFormat.contentTypeHeader)
        var opened = HTTPFields()
        opened.reserveCapacity(fields.count)
        var typePlaced = false
        for field in fields {
            switch field.name {
            case EncryptionWireFormat.encryptionHeader, EncryptionWireFormat.contentTypeHeader:
                continue
            case .contentType:
                if !typePlaced, let originalType { opened.append(HTTPField(name: .contentType, value: originalType)) }
                typePlaced = true
            default:
                opened.append(field)
            }
        }
        if !typePlaced, let originalType { opened.append(HTTPField(name: .contentType, value: originalType)) }
        return opened
    }
}

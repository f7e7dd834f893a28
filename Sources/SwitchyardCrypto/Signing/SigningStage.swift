public import Foundation
import HTTPTypes
public import Switchyard

/// Signs every request of one service (module) and, optionally, verifies the server's response
/// signatures.
///
/// Where it goes is the rule of `Docs/WireFormat.md`, *Where the stages go*:
///
/// - ``CanonicalRequestSigning`` (the default) adds only header fields: register it **after** every
///   stage that changes the request, the encryption stage included, so that it signs the bytes as
///   sent (the ciphertext).
/// - ``SortedParameterSigning`` with Switchyard's encryption headers signs the query (and a plaintext
///   form body): register it **before** the encryption stage, with the other stages that change the
///   query, because the encryption's associated data binds the query as it leaves that stage.
/// - ``SortedParameterSigning`` with a legacy framing (``EncryptionFraming/RequestFraming/formField(_:)``,
///   ``EncryptionFraming/RequestFraming/jsonMember(_:)``): register it **after** the encryption stage,
///   so that `sign` travels beside the sealed field and covers the sealed text.
///
/// It runs on every attempt: a retry gets a fresh nonce and timestamp. The exact bytes are documented
/// in `Docs/WireFormat.md`.
///
/// ```swift
/// let keys = try KeyRing(keyID: "k1", key: secret)
/// stages: [CommonParametersStage(...), EncryptionStage(keyRing: keys), SigningStage(keyRing: keys)]
/// stages: [EncryptionStage(scheme: .legacyAESECBBase64, keyRing: keys, framing: form),
///          SigningStage(scheme: SortedParameterSigning(algorithm: .md5), keyRing: wechatKeys)]   // legacy
/// ```
public struct SigningStage: CredentialBearingStage {
    /// Whether and how responses are verified.
    public enum ResponseVerification: Sendable, Hashable {
        /// Responses are not checked.
        case none
        /// Every 2xx response must carry a valid `X-Switchyard-Signature` over
        /// ``SigningWireFormat/canonicalResponse(status:timestamp:requestNonce:keyID:body:)`` by a key of
        /// the ring, with a timestamp within the allowed clock skew. The request's nonce is the one
        /// sent: `X-Switchyard-Nonce`, or with ``SortedParameterSigning`` the request's `nonce_str`
        /// (the app's own when it set one). An error status that carries a signature is verified too;
        /// one without (a gateway's 503 page) passes on as an HTTP status, marked
        /// ``Switchyard/Response/isUnverified``.
        case required
    }

    /// The scheme.
    public let scheme: any SignatureScheme
    /// The service's keys; the current one signs.
    public let keyRing: KeyRing
    /// Whether responses are verified.
    public let responseVerification: ResponseVerification
    /// How far a response's timestamp may be from the local clock.
    public let allowedClockSkew: Duration
    private let now: @Sendable () -> Date
    /// The scheme when it is ``SortedParameterSigning``, whose sent nonce is read from the request;
    /// cast once here rather than on every call.
    private let sortedParameterScheme: SortedParameterSigning?

    /// ``StageID/signing``.
    public var id: StageID { .signing }

    /// Inside every stage that changes what it signs, and inside a retry so each attempt is signed
    /// with a fresh nonce; a canonical-request signature also inside encryption (it signs the ciphertext).
    public var orderRules: [StageOrderRule] {
        var rules: [StageOrderRule] = [
            .inside(.commonParameters, because: "the signature must cover the parameters as sent"),
            .inside(.retry, because: "each attempt must be signed afresh, with a new nonce and timestamp"),
            .inside(.headers, .authorization, .cookies, strength: .advice, because: "header fields added after signing are not covered"),
        ]
        if scheme is CanonicalRequestSigning {
            rules.append(.inside(.encryption, because: "the canonical-request signature covers the bytes as sent: the ciphertext"))
        }
        return rules
    }

    /// Creates the stage.
    ///
    /// - Parameters:
    ///   - scheme: the scheme; ``CanonicalRequestSigning`` by default.
    ///   - keyRing: the service's keys.
    ///   - responseVerification: whether responses must be signed; not by default.
    ///   - allowedClockSkew: the window for response timestamps; 5 minutes by default.
    ///   - now: the clock (replace it in tests).
    public init(
        scheme: any SignatureScheme = CanonicalRequestSigning(),
        keyRing: KeyRing,
        responseVerification: ResponseVerification = .none,
        allowedClockSkew: Duration = .seconds(300),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.scheme = scheme
        self.sortedParameterScheme = scheme as? SortedParameterSigning
        self.keyRing = keyRing
        self.responseVerification = responseVerification
        self.allowedClockSkew = allowedClockSkew
        self.now = now
    }

    /// Signs, passes on, verifies.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        var request = request
        // A streamed upload is refused (``SwitchyardError/Code/unsupportedBody``): the signature covers the whole body.
        _ = try request.bodyBytes(for: id)
        let nonce = try SwitchyardError.crypto { () throws(CryptoError) in try NonceSource.hex(count: 16) }
        let timestamp = Int64(now().timeIntervalSince1970)
        let keyID = keyRing.currentKeyID
        try SwitchyardError.crypto { () throws(CryptoError) in
            try scheme.sign(&request, key: keyRing.currentKey, keyID: keyID, timestamp: timestamp, nonce: nonce)
        }
        // The response is signed for the nonce on the wire: a sorted-parameter signature keeps a
        // `nonce_str` the request already carried, and the generated one is then never sent. Read only
        // when the answer is verified.
        let sentNonce = responseVerification == .required ? sortedParameterScheme?.sentNonce(in: request) ?? nonce : nonce
        var response = try await next(request, context)
        if responseVerification == .required {
            // An unsigned error status (a gateway's 503 page, an auth proxy's 401) comes through as
            // what it is — an HTTP status, marked unverified — so the status check and retries see it.
            // A signed one is verified like any other; a 2xx must always be signed.
            if !(200...299).contains(response.status.code), response.headerFields.value(SigningWireFormat.signatureHeader) == nil {
                response.isUnverified = true
                return response
            }
            try verify(response, requestNonce: sentNonce)
        }
        return response
    }

    private func verify(_ response: Response, requestNonce: String) throws(SwitchyardError) {
        // A download written to a file cannot have its signature checked: skip the stage for the call and use a checksum.
        let body = try response.bodyBytes(for: id)
        let fields = response.headerFields
        guard let signature = fields.value(SigningWireFormat.signatureHeader), let keyID = fields.value(SigningWireFormat.keyIDHeader),
            let timestampText = fields.value(SigningWireFormat.timestampHeader)
        else {
            throw SwitchyardError(code: .crypto, message: "the response is not signed, and this service requires signed responses")
        }
        guard let timestamp = Int64(timestampText) else {
            throw SwitchyardError(code: .crypto, message: "the response's timestamp '\(timestampText)' is not a number of seconds")
        }
        let skew = abs(now().timeIntervalSince1970 - Double(timestamp))
        guard skew <= Double(allowedClockSkew.components.seconds) else {
            throw SwitchyardError(
                code: .crypto,
                message: "the response's timestamp is \(Int(skew)) s away from the local clock, outside the allowed \(allowedClockSkew)"
            )
        }
        guard let key = keyRing.key(for: keyID) else {
            throw SwitchyardError(
                code: .crypto,
                message: "the response is signed with key id '\(keyID)', which is not in the service's key ring"
            )
        }
        let canonical = SigningWireFormat.canonicalResponse(
            status: response.status.code,
            timestamp: timestamp,
            requestNonce: requestNonce,
            keyID: keyID,
            body: body
        )
        let expected = try SwitchyardError.crypto { () throws(CryptoError) in try SigningWireFormat.signature(of: canonical, using: key) }
        // Compared in the strings' own UTF-8 storage: `Data(_:)` over a string's bytes costs a dynamic
        // cast and a copy on every call.
        var expectedText = expected
        // Lower-cased only when it has to be: a signature as sent (ASCII, no capitals) already is.
        var received = signature
        if !received.withUTF8({ bytes in bytes.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) } }) {
            received = signature.lowercased()
        }
        let matches = expectedText.withUTF8 { left in
            received.withUTF8 { right in ConstantTime.equals(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right)) }
        }
        guard matches else {
            throw SwitchyardError(
                code: .crypto,
                message: "the response's signature does not match: it was altered or signed with another key"
            )
        }
    }
}

import HTTPTypes
public import Switchyard

/// How a ``SigningStage`` signs a request: what it signs (the canonical form) and where the
/// signature goes (header fields or parameters).
///
/// Two presets ship: ``CanonicalRequestSigning`` (the default: HMAC-SHA256 over a canonical request,
/// in header fields) and ``SortedParameterSigning`` (the legacy WeChat Pay v2 form, in a parameter).
/// Conform your own type to speak another backend's scheme.
public protocol SignatureScheme: Sendable {
    /// Signs `request` in place.
    ///
    /// - Parameters:
    ///   - request: the request as it will be sent (its body is final).
    ///   - key: the signing key.
    ///   - keyID: the key's id in the service's ``KeyRing``.
    ///   - timestamp: Unix seconds.
    ///   - nonce: a fresh random nonce (32 lower-case hex characters).
    func sign(_ request: inout Request, key: SymmetricKey, keyID: String, timestamp: Int64, nonce: String) throws(CryptoError)
}

/// Produces the string a ``CanonicalRequestSigning`` signs; replace it to sign other parts of a request.
public protocol SignatureCanonicalizer: Sendable {
    /// The string to sign for `request`.
    func canonicalString(for request: Request, timestamp: Int64, nonce: String, keyID: String) -> String
}

/// The default canonical form, ``SigningWireFormat/canonicalRequest(method:target:timestamp:nonce:keyID:body:)``.
public struct CanonicalRequestV1: SignatureCanonicalizer {
    /// Creates the canonicalizer.
    public init() {}

    /// Method, path, canonical query, timestamp, nonce, key id and body hash.
    public func canonicalString(for request: Request, timestamp: Int64, nonce: String, keyID: String) -> String {
        SigningWireFormat.canonicalRequest(
            method: request.method.rawValue,
            target: request.path,
            timestamp: timestamp,
            nonce: nonce,
            keyID: keyID,
            body: request.body?.bytes ?? .init()
        )
    }
}

/// The default scheme: HMAC-SHA256 over a canonical request, sent in the `X-Switchyard-Key-Id`,
/// `X-Switchyard-Timestamp`, `X-Switchyard-Nonce` and `X-Switchyard-Signature` header fields.
public struct CanonicalRequestSigning: SignatureScheme {
    /// What is signed.
    public let canonicalizer: any SignatureCanonicalizer

    /// Creates the scheme with a canonicalizer; ``CanonicalRequestV1`` by default.
    public init(canonicalizer: any SignatureCanonicalizer = CanonicalRequestV1()) {
        self.canonicalizer = canonicalizer
    }

    /// Adds the four header fields.
    public func sign(_ request: inout Request, key: SymmetricKey, keyID: String, timestamp: Int64, nonce: String) throws(CryptoError) {
        let canonical = canonicalizer.canonicalString(for: request, timestamp: timestamp, nonce: nonce, keyID: keyID)
        // The four fields are set in one pass over the request's fields (``HTTPFields/set(_:)``), as
        // four subscript sets would leave them — the first three also when the signature fails.
        var fields = [
            HTTPField(name: SigningWireFormat.keyIDHeader, value: keyID),
            HTTPField(name: SigningWireFormat.timestampHeader, value: String(timestamp)),
            HTTPField(name: SigningWireFormat.nonceHeader, value: nonce),
        ]
        do throws(CryptoError) {
            fields.append(
                HTTPField(name: SigningWireFormat.signatureHeader, value: try SigningWireFormat.signature(of: canonical, using: key))
            )
        } catch {
            request.headerFields.set(fields)
            throw error
        }
        request.headerFields.set(fields)
    }
}

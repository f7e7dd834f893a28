import Foundation
public import Switchyard

/// LEGACY, weaker: the sorted-parameter signature many payment and open-platform backends still
/// require (WeChat Pay v2 style). Prefer ``CanonicalRequestSigning`` wherever the server allows.
///
/// The parameters are those of the query (and of an `application/x-www-form-urlencoded` body).
/// The stage adds `nonce_str` (the nonce) when missing — and `sign_type=HMAC-SHA256` for that
/// algorithm — then drops empty values and the `sign` field, sorts the rest by name (bytewise), joins
/// them as `name=value&…` with values as they read (percent-decoded), appends `&key=<secret>`, and
/// signs that string: MD5 of it, or HMAC-SHA256 of it keyed with the secret; upper-case hex. The
/// signature is added as `sign` next to the other parameters. MD5 is weak, and the secret appears in
/// the signed string: use only when the backend requires it.
public struct SortedParameterSigning: SignatureScheme {
    /// The digest.
    public enum Algorithm: String, Sendable {
        /// `MD5(string)`, the classic form.
        case md5 = "MD5"
        /// `HMAC-SHA256(key: secret, string)`.
        case hmacSHA256 = "HMAC-SHA256"
    }

    /// The digest.
    public let algorithm: Algorithm

    /// Creates the scheme.
    public init(algorithm: Algorithm) { self.algorithm = algorithm }

    /// The upper-case hex signature of `parameters` with `secret` (the key's bytes as UTF-8 text).
    public static func signature(
        of parameters: [(name: String, value: String)],
        secret: SymmetricKey,
        algorithm: Algorithm
    ) throws(CryptoError) -> String {
        let kept = parameters.filter { !$0.value.isEmpty && $0.name != "sign" }
            .sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        let secretText = secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        let string = kept.map { "\($0.name)=\($0.value)" }.joined(separator: "&") + "&key=" + secretText
        switch algorithm {
        case .md5: return Digest.hex(Digest.md5(Data(string.utf8)), uppercase: true)
        case .hmacSHA256:
            return Digest.hex(try HMAC.authenticationCode(for: Data(string.utf8), using: secret, algorithm: .sha256), uppercase: true)
        }
    }

    /// Adds `nonce_str` (and `sign_type`) when missing, then `sign`, to the query or the form body.
    public func sign(_ request: inout Request, key: SymmetricKey, keyID: String, timestamp: Int64, nonce: String) throws(CryptoError) {
        let inBody = Self.signsBody(request)
        var encoded = Self.encodedParameters(of: request)
        var parameters = Self.decode(encoded)
        var added: [(name: String, value: String)] = []
        if !parameters.contains(where: { $0.name == "nonce_str" }) { added.append(("nonce_str", nonce)) }
        if algorithm == .hmacSHA256, !parameters.contains(where: { $0.name == "sign_type" }) {
            added.append(("sign_type", algorithm.rawValue))
        }
        parameters += added
        added.append(("sign", try Self.signature(of: parameters, secret: key, algorithm: algorithm)))
        let suffix = added.map { "\(Self.encode($0.name))=\(Self.encode($0.value))" }.joined(separator: "&")
        encoded = encoded.isEmpty ? suffix : encoded + "&" + suffix
        if inBody {
            request.body = .bytes(Data(encoded.utf8))
        } else {
            request.path = String(request.pathWithoutQuery) + "?" + encoded
        }
    }

    /// The `nonce_str` of a signed request, percent-decoded: the one the scheme added or the app's own.
    func sentNonce(in request: Request) -> String? {
        Self.decode(Self.encodedParameters(of: request)).first { $0.name == "nonce_str" }?.value
    }

    /// Whether the parameters are those of a form body rather than of the query.
    private static func signsBody(_ request: Request) -> Bool {
        request.headerFields[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true
    }

    /// The form body or the query, as sent.
    private static func encodedParameters(of request: Request) -> String {
        signsBody(request) ? String(decoding: request.body?.bytes ?? Data(), as: UTF8.self) : String(request.query ?? "")
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func decode(_ encoded: String) -> [(name: String, value: String)] {
        encoded.split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            return (name, value)
        }
    }

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

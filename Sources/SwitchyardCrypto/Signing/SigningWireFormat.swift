public import Foundation
public import HTTPTypes
import Switchyard

/// The header fields and canonical strings of the signing wire format (`Docs/WireFormat.md`),
/// public so that a server written in Swift signs and verifies exactly as Switchyard does.
public enum SigningWireFormat {
    /// `X-Switchyard-Key-Id`: the id of the key that signed.
    public static let keyIDHeader = HTTPField.Name("X-Switchyard-Key-Id")!
    /// `X-Switchyard-Timestamp`: Unix time in whole seconds when the message was signed.
    public static let timestampHeader = HTTPField.Name("X-Switchyard-Timestamp")!
    /// `X-Switchyard-Nonce`: 32 lower-case hex characters, fresh per request.
    public static let nonceHeader = HTTPField.Name("X-Switchyard-Nonce")!
    /// `X-Switchyard-Signature`: lower-case hex of HMAC-SHA256 over the canonical string.
    public static let signatureHeader = HTTPField.Name("X-Switchyard-Signature")!

    /// The canonical request:
    /// `switchyard/1 request`, method, path, canonical query, timestamp, nonce, key id and the
    /// lower-case hex SHA-256 of the body as sent, joined with `\n`.
    ///
    /// - Parameters:
    ///   - method: the method, as sent.
    ///   - target: the request target (`/path?query`), percent-encoded as sent.
    ///   - timestamp: Unix seconds.
    ///   - nonce: the request's nonce.
    ///   - keyID: the signing key's id.
    ///   - body: the body as sent (empty for none).
    public static func canonicalRequest(
        method: String,
        target: String,
        timestamp: Int64,
        nonce: String,
        keyID: String,
        body: Data
    ) -> String {
        let parts = Request.split(target: target)
        let query = parts.query.map { canonicalQuery(String($0)) } ?? ""
        return CanonicalText.joining(
            ["switchyard/1 request", method[...], parts.path, query[...], String(timestamp)[...], nonce[...], keyID[...]],
            digesting: body
        )
    }

    /// The canonical response: `switchyard/1 response`, status code, timestamp, the *request's*
    /// nonce, key id and the hex SHA-256 of the body as received, joined with `\n`.
    public static func canonicalResponse(status: Int, timestamp: Int64, requestNonce: String, keyID: String, body: Data) -> String {
        CanonicalText.joining(
            ["switchyard/1 response", String(status)[...], String(timestamp)[...], requestNonce[...], keyID[...]],
            digesting: body
        )
    }

    /// A query in canonical form: pairs split at the first `=`, names and values percent-decoded and
    /// re-encoded with the RFC 3986 unreserved set (upper-case hex), sorted by name then value
    /// (bytewise), joined with `&`. Empty pairs are dropped; a pair without `=` has an empty value.
    public static func canonicalQuery(_ query: String) -> String {
        guard !query.isEmpty else { return "" }
        var pairs: [(String, String)] = []
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = reencode(parts[0])
            let value = parts.count > 1 ? reencode(parts[1]) : ""
            pairs.append((name, value))
        }
        pairs.sort { lhs, rhs in
            lhs.0 == rhs.0
                ? Array(lhs.1.utf8).lexicographicallyPrecedes(Array(rhs.1.utf8))
                : Array(lhs.0.utf8).lexicographicallyPrecedes(Array(rhs.0.utf8))
        }
        return pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// Lower-case hex HMAC-SHA256 of `canonical` under `key`.
    public static func signature(of canonical: String, using key: SymmetricKey) throws(CryptoError) -> String {
        // Straight from the string's UTF-8, without copying it into a `Data` first, and the code
        // into a buffer on the stack, read once as it is written out in hex.
        var canonical = canonical
        let byteCount = HMAC.Algorithm.sha256.byteCount
        let signature: Result<String, CryptoError> = withUnsafeTemporaryAllocation(byteCount: byteCount, alignment: 1) { code in
            canonical.withUTF8 { utf8 in
                Result { () throws(CryptoError) in
                    try HMAC.authenticationCode(for: UnsafeRawBufferPointer(utf8), using: key, algorithm: .sha256, into: code)
                    return Digest.hex(bytes: UnsafeRawBufferPointer(code))
                }
            }
        }
        return try signature.get()
    }

    /// Percent-decodes (keeping invalid escapes as they are) and re-encodes with the unreserved set.
    private static func reencode(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        let digits = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        for byte in decoded {
            let isUnreserved =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if isUnreserved {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}

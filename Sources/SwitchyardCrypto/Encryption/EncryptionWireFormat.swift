public import Foundation
public import HTTPTypes
import Switchyard

/// The header fields and associated data of the encryption wire format (`Docs/WireFormat.md`),
/// public so that a server written in Swift — like the sample backend — speaks it exactly.
public enum EncryptionWireFormat {
    /// Which way a body travels; part of the associated data.
    public enum Direction: String, Sendable {
        /// From client to server.
        case request
        /// From server to client.
        case response
    }

    /// `X-Switchyard-Encryption: <scheme>; kid=<key id>`.
    public static let encryptionHeader = HTTPField.Name("X-Switchyard-Encryption")!
    /// `X-Switchyard-Content-Type`: the body's content type before encryption.
    public static let contentTypeHeader = HTTPField.Name("X-Switchyard-Content-Type")!
    /// `X-Switchyard-Request-Nonce`: 16 random bytes as 32 lower-case hex characters, fresh per
    /// attempt, sent on every request of wire format 2; both AADs of the exchange include it.
    public static let requestNonceHeader = HTTPField.Name("X-Switchyard-Request-Nonce")!

    /// The versions of the format.
    public enum Version: Sendable, Hashable {
        /// Version 1: the AAD binds direction, scheme, key id, method and path. Kept for servers that
        /// speak only it.
        case v1
        /// Version 2 (the default): the AAD also binds the canonical query and the request's nonce, so a
        /// sealed answer cannot be replayed to another query or another request.
        case v2
    }

    /// The associated data of one body of an exchange: version 2 when `requestNonce` is given, else
    /// version 1.
    ///
    /// Version 2 is `switchyard/2`, direction, scheme, key id, method, path (percent-encoded, as on the
    /// request line), the canonical query (``SigningWireFormat/canonicalQuery(_:)``) and the request
    /// nonce, joined with `\n`.
    ///
    /// - Parameters:
    ///   - direction: which way the body travels.
    ///   - scheme: the scheme.
    ///   - keyID: the key id named in `X-Switchyard-Encryption`.
    ///   - method: the request's method, as sent.
    ///   - target: the request target, path and query, exactly as on the request line.
    ///   - requestNonce: the request's `X-Switchyard-Request-Nonce`, or `nil` for version 1.
    /// - Returns: the AAD bytes.
    public static func associatedData(
        direction: Direction,
        scheme: EncryptionScheme,
        keyID: String,
        method: String,
        target: String,
        requestNonce: String?
    ) -> Data {
        let parts = Request.split(target: target)
        guard let requestNonce else {
            return associatedData(direction: direction, scheme: scheme, keyID: keyID, method: method, path: String(parts.path))
        }
        let query = parts.query.map(String.init) ?? ""
        let lines: [Substring] = [
            "switchyard/2", Substring(direction.rawValue), Substring(scheme.name), Substring(keyID), Substring(method), parts.path,
            Substring(SigningWireFormat.canonicalQuery(query)), Substring(requestNonce),
        ]
        return Data(utf8Joining: lines, separator: UInt8(ascii: "\n"))
    }

    /// The associated data: `switchyard/1`, direction, scheme, key id, method and path (percent-encoded,
    /// without the query), joined with `\n`.
    public static func associatedData(direction: Direction, scheme: EncryptionScheme, keyID: String, method: String, path: String) -> Data {
        let lines: [Substring] = [
            "switchyard/1", Substring(direction.rawValue), Substring(scheme.name), Substring(keyID), Substring(method), Substring(path),
        ]
        return Data(utf8Joining: lines, separator: UInt8(ascii: "\n"))
    }

    /// The value of ``encryptionHeader``: `<scheme>; kid=<key id>`.
    public static func headerValue(scheme: EncryptionScheme, keyID: String) -> String {
        var value = ""
        value.reserveCapacity(scheme.name.utf8.count + 6 + keyID.utf8.count)  // one allocation, no regrowth
        value += scheme.name
        value += "; kid="
        value += keyID
        return value
    }

    /// Parses the value of ``encryptionHeader``.
    ///
    /// - Throws: ``CryptoError/Code/invalidInput`` when it is not `<scheme>; kid=<valid key id>`.
    public static func parseHeader(_ value: String) throws(CryptoError) -> (scheme: String, keyID: String) {
        // Byte-level: `<scheme>; kid=<id>`, spaces and tabs around either part allowed; read in place.
        var text = value
        let split: (scheme: String, keyID: String)? = text.withUTF8 { utf8 in
            func trimmed(_ range: Range<Int>) -> Slice<UnsafeBufferPointer<UInt8>> {
                var lower = range.lowerBound
                var upper = range.upperBound
                while lower < upper, utf8[lower] == 0x20 || utf8[lower] == 0x09 { lower += 1 }
                while upper > lower, utf8[upper - 1] == 0x20 || utf8[upper - 1] == 0x09 { upper -= 1 }
                return utf8[lower..<upper]
            }
            guard let separator = utf8.firstIndex(of: UInt8(ascii: ";")),
                utf8[(separator + 1)...].firstIndex(of: UInt8(ascii: ";")) == nil
            else { return nil }
            let scheme = trimmed(0..<separator)
            let key = trimmed((separator + 1)..<utf8.count)
            guard key.starts(with: "kid=".utf8), !scheme.isEmpty else { return nil }
            return (String(decoding: scheme, as: UTF8.self), String(decoding: key.dropFirst(4), as: UTF8.self))
        }
        guard let (scheme, keyID) = split else {
            throw CryptoError(code: .invalidInput, message: "the X-Switchyard-Encryption header '\(value)' is not '<scheme>; kid=<key id>'")
        }
        guard KeyRing.isValidID(keyID) else {
            throw CryptoError(code: .invalidInput, message: "the key id '\(keyID)' in X-Switchyard-Encryption is not valid")
        }
        return (scheme, keyID)
    }
}

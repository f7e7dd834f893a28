import CNIOSSLDigest
public import Foundation
public import SwitchyardCore

/// The public keys a service's servers may present: SHA-256 digests of the DER-encoded
/// `SubjectPublicKeyInfo` of the server's certificate, the pins OkHttp, TrustKit and HPKP use.
///
/// Give a pinned transport several pins to rotate keys without breaking installed apps: the key in
/// use today and the one that replaces it. A connection is accepted only when the certificate the
/// server proved it holds the key for (the leaf, after the ordinary chain and host name checks
/// passed) carries one of the pinned keys; anything else fails the call with
/// ``Switchyard/SwitchyardError/Code/pinning`` before a byte of the request is sent.
///
/// Make a pin from a certificate with OpenSSL:
///
/// ```sh
/// openssl x509 -in server.pem -pubkey -noout | openssl pkey -pubin -outform der \
///     | openssl dgst -sha256 -binary | base64
/// ```
///
/// ```swift
/// let pins = try PublicKeyPins([
///     "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",  // today's key
///     "sha256/8Rw90Ej3Ttt8RRkrg+WYDS9n7IS03bk5bjP/UXPtaY8=",  // the next key
/// ])
/// let transport = AsyncHTTPClientTransport(pinning: .init(pins: pins))
/// ```
public struct PublicKeyPins: Sendable, Hashable {
    /// The pinned SHA-256 digests, 32 bytes each.
    public let digests: Set<Data>

    /// Creates pins from their Base64 text, with or without the `sha256/` prefix.
    ///
    /// - Parameter pins: one or more Base64-encoded SHA-256 digests of `SubjectPublicKeyInfo`s.
    /// - Throws: ``Switchyard/SwitchyardError/Code/invalidRequest`` when the list is empty or a pin is
    ///   not Base64 of exactly 32 bytes; the message names the pin's position, never its value.
    public init(_ pins: [String]) throws(SwitchyardError) {
        guard !pins.isEmpty else {
            throw SwitchyardError(code: .invalidRequest, message: "a pinned transport needs at least one public-key pin")
        }
        var digests = Set<Data>()
        for (index, pin) in pins.enumerated() {
            let text = pin.hasPrefix("sha256/") ? String(pin.dropFirst("sha256/".count)) : pin
            guard let digest = Data(base64Encoded: text), digest.count == 32 else {
                throw SwitchyardError(
                    code: .invalidRequest,
                    message: "public-key pin \(index + 1) of \(pins.count) is not the Base64 of a 32-byte SHA-256 digest"
                )
            }
            digests.insert(digest)
        }
        self.digests = digests
    }

    /// The pin of a DER-encoded `SubjectPublicKeyInfo`: its SHA-256 digest, through swift-crypto.
    ///
    /// - Parameter subjectPublicKeyInfo: the DER bytes of a public key's `SubjectPublicKeyInfo`.
    /// - Returns: the pin as `sha256/<Base64>`.
    public static func pin(ofSubjectPublicKeyInfo subjectPublicKeyInfo: [UInt8]) -> String {
        "sha256/" + Self.digest(subjectPublicKeyInfo).base64EncodedString()
    }

    /// Whether a DER-encoded `SubjectPublicKeyInfo` carries one of the pinned keys.
    ///
    /// - Parameter subjectPublicKeyInfo: the DER bytes of the presented certificate's public key.
    /// - Returns: `true` when its SHA-256 digest is one of ``digests``.
    public func matches(subjectPublicKeyInfo: [UInt8]) -> Bool {
        digests.contains(Self.digest(subjectPublicKeyInfo))
    }

    /// The SHA-256 digest of `bytes`, through the BoringSSL that NIOSSL already links into the
    /// transport: no system library, no second BoringSSL.
    private static func digest(_ bytes: [UInt8]) -> Data {
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                switchyard_niossl_sha256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return Data(digest)
    }
}

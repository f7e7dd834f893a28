public import Foundation

/// How a body is encrypted on the wire. See `Docs/WireFormat.md` for the exact bytes.
///
/// The authenticated schemes are ``aes256GCM`` (the default) and ``aes256CBCHMACSHA256``. The
/// `legacy…` schemes exist for backends that still speak them: they are **weaker** — no integrity,
/// and ECB leaks equal blocks — so choose them only when the server cannot change. They take no
/// associated data, so a sealed body is bound to nothing of its exchange either: one recorded from
/// another endpoint, another user's call or an earlier call opens as this one's (so does any
/// scheme in a legacy ``EncryptionFraming``, which seals with empty associated data).
public struct EncryptionScheme: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        case gcm
        case cbcHMAC
        case legacyECB
        case legacyCBCFixedIV(Data)
        case legacyCBCKeyIV
    }

    let kind: Kind

    /// The scheme's name in the `X-Switchyard-Encryption` header.
    public var name: String {
        switch kind {
        case .gcm: "aes-256-gcm"
        case .cbcHMAC: "aes-256-cbc-hmac-sha256"
        case .legacyECB: "legacy-aes-ecb-base64"
        case .legacyCBCFixedIV: "legacy-aes-cbc-fixed-iv-base64"
        case .legacyCBCKeyIV: "legacy-aes-cbc-key-iv-base64"
        }
    }

    /// The scheme's name.
    public var description: String { name }

    /// Whether tampering is detected (the AAD binds method, path, direction and key id).
    public var isAuthenticated: Bool {
        switch kind {
        case .gcm, .cbcHMAC: true
        case .legacyECB, .legacyCBCFixedIV, .legacyCBCKeyIV: false
        }
    }

    /// Whether the body is binary (`application/octet-stream`) rather than Base64 text.
    public var isBinary: Bool { isAuthenticated }

    /// AES-256-GCM with a random 96-bit nonce per message: the default.
    public static let aes256GCM = EncryptionScheme(kind: .gcm)

    /// AES-256-CBC with PKCS#7 padding, then HMAC-SHA256 over AAD, IV and ciphertext
    /// (encrypt-then-MAC), with subkeys derived by HKDF-SHA256.
    public static let aes256CBCHMACSHA256 = EncryptionScheme(kind: .cbcHMAC)

    /// LEGACY, weaker: AES-ECB with PKCS#7 padding, Base64 body. No integrity; equal blocks leak.
    public static let legacyAESECBBase64 = EncryptionScheme(kind: .legacyECB)

    /// LEGACY, weaker: AES-CBC with PKCS#7 padding and one fixed IV for every message, Base64 body.
    /// No integrity; equal plaintext prefixes leak.
    ///
    /// - Parameter iv: the 16-byte IV the server expects.
    public static func legacyAESCBCBase64(fixedIV iv: Data) -> EncryptionScheme {
        EncryptionScheme(kind: .legacyCBCFixedIV(iv))
    }

    /// LEGACY, weaker: AES-CBC with PKCS#7 padding whose IV is the key's first 16 bytes, Base64 body.
    /// No integrity; equal plaintext prefixes leak.
    public static let legacyAESCBCKeyIVBase64 = EncryptionScheme(kind: .legacyCBCKeyIV)
}

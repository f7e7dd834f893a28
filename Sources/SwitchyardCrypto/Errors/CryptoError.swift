/// The one error type every SwitchyardCrypto operation throws.
///
/// An error carries a stable ``code`` to match on and a ``message`` written for a person. Messages
/// name sizes and OpenSSL's own error text; they never contain key bytes, plaintext or tags.
///
/// ```swift
/// do {
///     let plaintext = try AESGCM.open(box, using: key)
/// } catch let error as CryptoError where error.code == .authenticationFailed {
///     // tampered, truncated or encrypted under another key
/// }
/// ```
///
/// Codes are values of ``Code``, a struct rather than an enum, so that new codes can be added
/// without breaking your `switch` statements. Match on ``code``: two errors with the same code can
/// carry different messages.
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a stable, growable set of values.
    public var code: Code
    /// A sentence that says what went wrong, without any secret material.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: the stable code.
    ///   - message: a sentence a person understands; never put key bytes in it.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `[code] message`.
    public var description: String { "[\(code)] \(message)" }
}

extension CryptoError {
    /// A stable error code. Compare with `==` or switch over the static members.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's stable name, e.g. `"authenticationFailed"`.
        public let rawValue: String
        /// Creates a code from its stable name.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The code's stable name.
        public var description: String { rawValue }

        /// A key has a size the algorithm does not accept (AES takes 16, 24 or 32 bytes; GCM here 16 or 32).
        public static let invalidKeySize = Code("invalidKeySize")
        /// An AES-GCM nonce is not 12 bytes.
        public static let invalidNonceSize = Code("invalidNonceSize")
        /// An AES-CBC initialization vector is not 16 bytes.
        public static let invalidIVSize = Code("invalidIVSize")
        /// An authentication tag does not match: the data was tampered with, truncated, bound to other
        /// associated data, or sealed under another key.
        public static let authenticationFailed = Code("authenticationFailed")
        /// Decrypted data does not end in valid PKCS#7 padding (wrong key, wrong IV or tampered data).
        public static let badPadding = Code("badPadding")
        /// The input is shorter than the format requires (an empty ciphertext, a partial block, a sealed
        /// box without room for nonce and tag).
        public static let truncatedInput = Code("truncatedInput")
        /// An argument is out of range (a negative count, an HKDF output length above 8160 bytes, …).
        public static let invalidInput = Code("invalidInput")
        /// The system's secure random generator failed.
        public static let randomFailure = Code("randomFailure")
        /// OpenSSL reported an internal failure; the message carries OpenSSL's error text.
        public static let openSSLFailure = Code("openSSLFailure")
    }
}

public import Foundation

extension AESGCM {
    /// The result of ``AESGCM/seal(_:using:authenticating:)``: a 12-byte nonce, the ciphertext (as long
    /// as the plaintext) and a 16-byte tag.
    ///
    /// On the wire it is usually sent as ``combined``, `nonce ‖ ciphertext ‖ tag`, and read back with
    /// ``init(combined:)``.
    public struct SealedBox: Sendable, Equatable {
        /// The 12-byte nonce the box was sealed under.
        public let nonce: Data
        /// The encrypted bytes, as many as the plaintext had.
        public let ciphertext: Data
        /// The 16-byte authentication tag.
        public let tag: Data

        /// `nonce ‖ ciphertext ‖ tag`: 28 bytes plus the plaintext's length.
        public var combined: Data {
            var bytes = Data(capacity: nonce.count + ciphertext.count + tag.count)
            bytes.append(nonce)
            bytes.append(ciphertext)
            bytes.append(tag)
            return bytes
        }

        /// Splits `nonce ‖ ciphertext ‖ tag` into its parts.
        ///
        /// Nothing is authenticated here; ``AESGCM/open(_:using:authenticating:)`` does that.
        ///
        /// - Throws: ``CryptoError/Code/truncatedInput`` if there are fewer than 28 bytes.
        public init(combined: some ContiguousBytes) throws(CryptoError) {
            let bytes = combined.cryptoData
            let minimum = AESGCM.nonceByteCount + AESGCM.tagByteCount
            guard bytes.count >= minimum else {
                throw CryptoError(
                    code: .truncatedInput,
                    message: "An AES-GCM sealed box needs at least \(minimum) bytes (nonce and tag); got \(bytes.count)."
                )
            }
            let tagStart = bytes.count - AESGCM.tagByteCount
            nonce = Data(bytes[0..<AESGCM.nonceByteCount])
            ciphertext = Data(bytes[AESGCM.nonceByteCount..<tagStart])
            tag = Data(bytes[tagStart...])
        }

        /// Assembles a box from its parts.
        ///
        /// - Throws: ``CryptoError/Code/invalidNonceSize`` unless the nonce has 12 bytes,
        ///   ``CryptoError/Code/invalidInput`` unless the tag has 16 bytes.
        public init(
            nonce: some ContiguousBytes,
            ciphertext: some ContiguousBytes,
            tag: some ContiguousBytes
        ) throws(CryptoError) {
            let checkedNonce = try SealedBox.checkedNonce(nonce)
            let tag = tag.cryptoData
            guard tag.count == AESGCM.tagByteCount else {
                throw CryptoError(
                    code: .invalidInput,
                    message: "An AES-GCM tag must be \(AESGCM.tagByteCount) bytes; got \(tag.count)."
                )
            }
            self.init(validatedNonce: checkedNonce, ciphertext: ciphertext.cryptoData, tag: tag)
        }

        /// Assembles a box from parts whose sizes are already known to be right.
        init(validatedNonce: Data, ciphertext: Data, tag: Data) {
            nonce = validatedNonce
            self.ciphertext = ciphertext
            self.tag = tag
        }

        /// A copy of `nonce`, or ``CryptoError/Code/invalidNonceSize`` unless it has 12 bytes.
        static func checkedNonce(_ nonce: some ContiguousBytes) throws(CryptoError) -> Data {
            let bytes = nonce.cryptoData
            guard bytes.count == AESGCM.nonceByteCount else {
                throw CryptoError(
                    code: .invalidNonceSize,
                    message: "An AES-GCM nonce must be \(AESGCM.nonceByteCount) bytes; got \(bytes.count)."
                )
            }
            return bytes
        }
    }
}

public import Foundation

extension EncryptionScheme {
    /// Seals `plaintext` into the body bytes of this scheme (what a client sends, or a server answers).
    ///
    /// - Parameters:
    ///   - plaintext: the body to seal.
    ///   - key: the key (32 bytes for the authenticated schemes; 16, 24 or 32 for legacy ones).
    ///   - aad: ``EncryptionWireFormat/associatedData(direction:scheme:keyID:method:path:)``; ignored by legacy schemes.
    /// - Returns: the body bytes.
    public func seal(_ plaintext: Data, key: SymmetricKey, aad: Data) throws(CryptoError) -> Data {
        switch kind {
        case .gcm:
            try Self.requireKeySize(key, [32])
            return try AESGCM.seal(plaintext, using: key, authenticating: aad).combined
        case .cbcHMAC:
            try Self.requireKeySize(key, [32])
            let (encryptionKey, macKey) = try Self.subkeys(key)
            let iv = try SecureRandom.bytes(count: 16)  // a CBC IV must be unpredictable, not only unique
            let ciphertext = try AESCBC.encrypt(plaintext, using: encryptionKey, iv: iv)
            let mac = try HMAC.authenticationCode(for: Self.macInput(aad: aad, iv: iv, ciphertext: ciphertext), using: macKey)
            return iv + ciphertext + mac
        case .legacyECB:
            return Data(try AESECB.encrypt(plaintext, using: key).base64EncodedString().utf8)
        case .legacyCBCFixedIV(let iv):
            return Data(try AESCBC.encrypt(plaintext, using: key, iv: iv).base64EncodedString().utf8)
        case .legacyCBCKeyIV:
            return Data(try AESCBC.encrypt(plaintext, using: key, iv: Self.keyIV(key)).base64EncodedString().utf8)
        }
    }

    /// Opens body bytes of this scheme.
    ///
    /// - Parameters:
    ///   - body: the body bytes.
    ///   - key: the key.
    ///   - aad: the associated data the body was sealed with.
    /// - Returns: the plaintext.
    /// - Throws: ``CryptoError`` — ``CryptoError/Code/authenticationFailed`` for a tampered body,
    ///   ``CryptoError/Code/truncatedInput``, ``CryptoError/Code/badPadding``, ``CryptoError/Code/invalidInput`` (bad Base64) …
    public func open(_ body: Data, key: SymmetricKey, aad: Data) throws(CryptoError) -> Data {
        switch kind {
        case .gcm:
            try Self.requireKeySize(key, [32])
            return try AESGCM.open(AESGCM.SealedBox(combined: body), using: key, authenticating: aad)
        case .cbcHMAC:
            try Self.requireKeySize(key, [32])
            guard body.count >= 16 + 16 + 32 else {
                throw CryptoError(
                    code: .truncatedInput,
                    message: "an aes-256-cbc-hmac-sha256 body needs at least 64 bytes, got \(body.count)"
                )
            }
            let iv = body.prefix(16)
            let ciphertext = body.dropFirst(16).dropLast(32)
            let mac = body.suffix(32)
            let (encryptionKey, macKey) = try Self.subkeys(key)
            let valid = try HMAC.isValidAuthenticationCode(
                mac,
                for: Self.macInput(aad: aad, iv: Data(iv), ciphertext: Data(ciphertext)),
                using: macKey
            )
            guard valid else { throw CryptoError(code: .authenticationFailed, message: "the body's HMAC does not match") }
            return try AESCBC.decrypt(Data(ciphertext), using: encryptionKey, iv: Data(iv))
        case .legacyECB:
            return try AESECB.decrypt(Self.base64(body), using: key)
        case .legacyCBCFixedIV(let iv):
            return try AESCBC.decrypt(Self.base64(body), using: key, iv: iv)
        case .legacyCBCKeyIV:
            return try AESCBC.decrypt(Self.base64(body), using: key, iv: Self.keyIV(key))
        }
    }

    private static func requireKeySize(_ key: SymmetricKey, _ sizes: [Int]) throws(CryptoError) {
        guard sizes.contains(key.byteCount) else {
            throw CryptoError(
                code: .invalidKeySize,
                message: "this scheme needs a key of \(sizes.map(String.init).joined(separator: " or ")) bytes, got \(key.byteCount)"
            )
        }
    }

    private static func subkeys(_ key: SymmetricKey) throws(CryptoError) -> (SymmetricKey, SymmetricKey) {
        let encryption = try HKDF.deriveKey(
            inputKeyMaterial: key,
            salt: Data(),
            info: Data("switchyard/1 aes-256-cbc-hmac-sha256 enc".utf8),
            outputByteCount: 32
        )
        let mac = try HKDF.deriveKey(
            inputKeyMaterial: key,
            salt: Data(),
            info: Data("switchyard/1 aes-256-cbc-hmac-sha256 mac".utf8),
            outputByteCount: 32
        )
        return (encryption, mac)
    }

    private static func macInput(aad: Data, iv: Data, ciphertext: Data) -> Data {
        var length = UInt64(aad.count).bigEndian
        var input = Data(bytes: &length, count: 8)
        input.append(aad)
        input.append(iv)
        input.append(ciphertext)
        return input
    }

    private static func keyIV(_ key: SymmetricKey) -> Data {
        key.withUnsafeBytes { Data($0.prefix(16)) }
    }

    private static func base64(_ body: Data) throws(CryptoError) -> Data {
        let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let decoded = Data(base64Encoded: text) else {
            throw CryptoError(code: .invalidInput, message: "the body is not valid Base64")
        }
        return decoded
    }
}

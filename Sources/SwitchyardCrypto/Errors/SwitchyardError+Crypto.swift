public import Switchyard

extension SwitchyardError.Code {
    /// Encryption, decryption, signing or verification failed (wrong key, tampered body, bad Base64,
    /// a plaintext response where encryption is required …).
    public static let crypto = SwitchyardError.Code("crypto")
}

extension SwitchyardError {
    /// Runs `work`, turning a ``CryptoError`` into a ``Code/crypto`` error that keeps it as the
    /// underlying error (the stage that calls this is named by the pipeline).
    static func crypto<T>(_ work: () throws(CryptoError) -> T) throws(SwitchyardError) -> T {
        do {
            return try work()
        } catch {
            throw SwitchyardError(code: .crypto, message: error.message, underlyingError: error)
        }
    }
}

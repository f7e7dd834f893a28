public import Switchyard

extension SwitchyardError.Code {
    /// Encryption, decryption, signing or verification failed (wrong key, tampered body, bad Base64,
    /// a plaintext response where encryption is required …).
    public static let crypto = SwitchyardError.Code("crypto")
}

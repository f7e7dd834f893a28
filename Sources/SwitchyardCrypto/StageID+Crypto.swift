public import Switchyard

extension StageID {
    /// ``EncryptionStage``: enable it per call or endpoint when a service registers it as opt-in.
    public static let encryption: StageID = "Encryption"
    /// ``SigningStage``.
    public static let signing: StageID = "Signing"
}

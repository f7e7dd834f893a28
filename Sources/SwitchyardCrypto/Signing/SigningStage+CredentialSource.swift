public import Switchyard

extension SigningStage: CredentialSource {
    /// The current key's id: a signature is made with the service's key, the same whoever is signed
    /// in, so it names no user — only the key, which a cache's partition then follows.
    public func credentialFingerprint(for context: CallContext) async throws -> String? {
        "signing-key:" + keyRing.currentKeyID
    }

    /// The header fields of ``CanonicalRequestSigning`` (`X-Switchyard-Key-Id`, `…-Timestamp`,
    /// `…-Nonce`, `…-Signature`) and the parameters of ``SortedParameterSigning`` (`sign`,
    /// `sign_type`, `nonce_str`): what a signature adds is the service's, so a cache registered
    /// outside this stage still stores what it fetched. A scheme of your own that writes other
    /// secret-looking names makes the exchange unshareable (``Switchyard/CredentialPartition``).
    public var credentialNames: Set<String> {
        [
            SigningWireFormat.keyIDHeader.canonicalName, SigningWireFormat.timestampHeader.canonicalName,
            SigningWireFormat.nonceHeader.canonicalName, SigningWireFormat.signatureHeader.canonicalName,
            "sign", "sign_type", "nonce_str",
        ]
    }
}

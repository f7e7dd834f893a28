/// A call's ``CredentialPartition`` taken before the request passes the stages inside the asking
/// stage (a cache, the same-request check), and what it accounts for: the credentials the request
/// carried then, and the names the credential sources that named the call's credentials write.
///
/// ``covers(_:)`` checks it against what reached the transport (the requests ``CallControl`` kept): a
/// credential it does not account for was added by a stage the partition could not ask, so the
/// exchange belongs to whoever that credential names — not to the partition — and must not be shared.
struct CredentialPrediction: Sendable {
    /// The partition.
    let partition: CredentialPartition
    /// Whether the app named the call's account: the partition is the account's, whatever is sent.
    private let namesAccount: Bool
    /// The credentials the request carried.
    private let carried: Set<CredentialPart>
    /// The names written by the credential sources that named the call's credentials.
    private let sourceNames: Set<String>
    /// The credentials of a fixed value the service declared its own (``FixedCredentialStage``).
    private let fixed: Set<FixedCredential>
    /// The accounts the call's credentials belong to, as its credential sources name them (a
    /// fingerprint `account:<name>`): ``APIClient/endSession(for:account:)`` drops their entries too.
    let sourceAccounts: Set<String>

    /// The prediction for `request` as the asking stage sees it in `context`.
    ///
    /// - Throws: what a credential source throws when it cannot say which credentials it will use.
    init(_ request: Request, context: CallContext, digest: PartitionDigest) async throws {
        if let account = context.account {
            self.partition = CredentialPartition(account: account, digest: digest)
            self.namesAccount = true
            self.carried = []
            self.sourceNames = []
            self.sourceAccounts = []
            self.fixed = []
            return
        }
        let carried = CredentialPart.parts(of: request)
        let fixed = context.fixedCredentials
        // A credential the service declared its own names no user: it is left out of the partition.
        var material = carried.filter { !fixed.contains(FixedCredential(name: $0.name, value: $0.value)) }.map(\.text)
        var sourceNames: Set<String> = []
        var sourceAccounts: Set<String> = []
        for source in context.credentialSources {
            if let fingerprint = try await source.credentialFingerprint(for: context) {
                material.append("stage:" + source.id.canonicalName + "=" + fingerprint)
                sourceNames.formUnion(source.credentialNames.map { $0.lowercased() })
                if fingerprint.hasPrefix("account:") { sourceAccounts.insert(String(fingerprint.dropFirst("account:".count))) }
            }
        }
        self.partition = CredentialPartition.of(material, digest: digest)
        self.namesAccount = false
        self.carried = Set(carried)
        self.sourceNames = sourceNames
        self.sourceAccounts = sourceAccounts
        self.fixed = fixed
    }

    /// Whether the partition accounts for every credential in `sent`: each was carried when the
    /// partition was taken, is written by a credential source that named the call's credentials, or
    /// is one of the service's fixed credentials, name and value — or the app named the call's account.
    /// Whether what reaches the transport can change ``covers(_:)``'s answer: not when the call names
    /// its account, so such a call never has its sent credentials recorded.
    var checksSent: Bool { !namesAccount }

    func covers(_ sent: [Request]) -> Bool {
        namesAccount
            || sent.allSatisfy { request in
                CredentialPart.parts(of: request).allSatisfy {
                    carried.contains($0) || sourceNames.contains($0.name) || fixed.contains(FixedCredential(name: $0.name, value: $0.value))
                }
            }
    }
}

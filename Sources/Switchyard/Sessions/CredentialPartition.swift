import HTTPTypes
import SwitchyardSupport
import Synchronization

/// Whose data a request is: the partition a cached response is stored in and the calls that may
/// share one network exchange are drawn from.
///
/// When the app names the account a call is made for (``CallOptions/account``), the partition is that
/// account's: every call for it shares the partition, whatever token it carries. Otherwise the
/// partition is derived from the credentials the request carries — its credential header fields
/// (`Authorization`, `Cookie`, and any field whose name ``Redaction/default`` marks as secret, such as
/// `X-Api-Key`), its credential query parameters (`access_token`, `session` …) — and the credentials
/// the service's ``CredentialSource`` stages will add (an ``AuthorizationStage``'s account or token).
/// Requests with none of these share the ``public`` partition; requests with different credentials
/// get different partitions, so a response is only ever served to — or shared with — a request made
/// with the same credentials or for the same account.
///
/// A partition is taken before the request has passed the stages inside the asking stage, so what
/// the request carries when it reaches the transport is checked too: a credential that neither the
/// request carried then nor a credential source that named the call's credentials puts on it
/// (``CredentialSource/credentialNames``) — a ``HeadersStage`` or ``CommonParametersStage`` value, a
/// stage of your own — makes the exchange unshareable: its response is not cached, and identical
/// calls that joined it send their own requests instead. A credential of a fixed value is a user's
/// too, unless the service declares it its own (``CommonHeader/fixed(_:_:isServiceCredential:)``,
/// ``CommonParameter/fixed(_:_:isServiceCredential:)``): only such a one names no user, carried or
/// added inside.
///
/// The value is a keyed digest: it names the credentials without holding them, and cannot be turned
/// back into them without the key. In memory the key is drawn at random for each process; a
/// ``ResponseCache`` whose disk tier is sealed (``CacheSealing/digest``) digests with the sealing's
/// key instead (HMAC-SHA-256 in SwitchyardCrypto), so that its entries are found again after a
/// restart. No other partition is ever written to disk.
public struct CredentialPartition: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `public`, or the digest: `m:` and 32 hex digits (this process's key), `k:` and the hex digits
    /// of the sealing's digest.
    public let rawValue: String

    /// A partition from its stored text.
    init(rawValue: String) { self.rawValue = rawValue }

    /// The partition of requests that carry no credentials.
    public static let `public` = CredentialPartition(rawValue: "public")

    /// Whether this is the ``public`` partition.
    public var isPublic: Bool { self == .public }

    /// Whether a disk tier may store an entry of this partition: the public one, or one digested with
    /// a sealing's key (never this process's own).
    var isPersistable: Bool { isPublic || rawValue.hasPrefix(PartitionDigest.keyedPrefix) }

    /// `public` or the digest.
    public var description: String { rawValue }

    /// The partition of the app-named account `account`, digested with this process's key (as the
    /// same-request check and a cache without a sealed disk tier digest it; a cache whose disk tier
    /// has a ``CacheSealing/digest`` digests with that instead).
    public init(account: String) { self.init(account: account, digest: .process) }

    /// The partition of `account` under `digest`.
    init(account: String, digest: PartitionDigest) { self = Self.of(["account=" + account], digest: digest) }

    /// The partition of credential material given as name–value pairs (sorted before digesting).
    static func of(_ parts: [String], digest: PartitionDigest) -> CredentialPartition {
        guard !parts.isEmpty else { return .public }
        return CredentialPartition(rawValue: digest.digest(parts.sorted().joined(separator: "\u{1F}")))
    }

    /// A stable text naming a credential without holding it, for ``CredentialSource/credentialFingerprint(for:)``:
    /// the material of a partition, never stored as it is (the partition digests it with a key).
    static func fingerprint(of credential: String) -> String {
        let first = FNV1a.hash(credential.utf8)
        let second = FNV1a.hash(credential.utf8, offsetBasis: 0x6c62_272e_07bb_0142)
        return String(first, radix: 16) + "-" + String(second, radix: 16)
    }

    /// The partition of `request` as it will be sent for the call in `context`: the call's account's,
    /// or that of the credentials it carries now and those the service's credential sources will add —
    /// digested with this process's key, as ``init(account:)`` is. (A ``CacheStage`` also checks what
    /// reaches the transport; ``CacheStage/key(for:context:)`` gives the partition its cache uses.)
    ///
    /// - Parameters:
    ///   - request: the request, as the asking stage sees it.
    ///   - context: the call's context.
    /// - Returns: the partition.
    /// - Throws: what a credential source throws when it cannot say which credentials it will use.
    public static func of(_ request: Request, context: CallContext) async throws -> CredentialPartition {
        try await CredentialPrediction(request, context: context, digest: .process).partition
    }

    /// Whether a header field carries credentials.
    static func isCredential(_ name: HTTPField.Name) -> Bool {
        if name == .authorization || name == .proxyAuthorization || name == .cookie { return true }
        // The fields nearly every request carries, judged once when first needed: compared without a lock.
        if plainNames.contains(where: { $0 == name }) { return false }
        // The same few names come back on every call: each is judged once (up to a bound).
        let key = name.canonicalName
        if let known = judgedNames.withLock({ $0[key] }) { return known }
        let sensitive = Redaction.default.isSensitive(name)
        judgedNames.withLock { names in
            if names.count < 512 { names[key] = sensitive }
        }
        return sensitive
    }

    /// Fields nearly every request carries that ``Redaction/default`` does not hide.
    private static let plainNames: [HTTPField.Name] = [
        .userAgent, .accept, .contentType, .acceptEncoding, .acceptLanguage, .contentLength, .ifNoneMatch, .ifModifiedSince,
    ].filter { !Redaction.default.isSensitive($0) }

    /// Header names already judged by ``isCredential(_:)``.
    private static let judgedNames = Mutex<[String: Bool]>([:])
}

extension CredentialPartition {
    /// The option under which ``CallOptions/account`` names a call's account. It separates calls
    /// by the account's partition, never by the account's name.
    enum Account: ClientOptionKey {
        typealias Value = String
        static let name = "account"
        static func identity(_ value: String) -> String? { CredentialPartition(account: value).rawValue }
    }
}

extension CallOptions {
    /// The account the call is made for, for apps and servers that serve several users with one
    /// client: calls for different accounts never share cached responses or a network exchange, and
    /// ``APIClient/endSession(for:account:)`` can end one account's session alone. `nil` keeps the
    /// endpoint's (or none).
    public var account: String? {
        get { self[option: CredentialPartition.Account.self] }
        set { self[option: CredentialPartition.Account.self] = newValue }
    }
}

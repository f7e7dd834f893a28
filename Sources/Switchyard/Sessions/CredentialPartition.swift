import HTTPTypes
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
/// The value is a digest: it names the credentials without holding them, so it can be stored on disk
/// beside a cache entry.
public struct CredentialPartition: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `public` or 32 hex digits.
    public let rawValue: String

    /// Creates a partition from its stored text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The partition of requests that carry no credentials.
    public static let `public` = CredentialPartition(rawValue: "public")

    /// Whether this is the ``public`` partition.
    public var isPublic: Bool { self == .public }

    /// `public` or the digest.
    public var description: String { rawValue }

    /// The partition of the app-named account `account`.
    public init(account: String) { self = Self.of(["account=" + account]) }

    /// The partition of credential material given as name–value pairs (sorted before hashing).
    static func of(_ parts: [String]) -> CredentialPartition {
        guard !parts.isEmpty else { return .public }
        let text = parts.sorted().joined(separator: "\u{1F}")
        // Two independent 64-bit FNV-1a digests (different offset bases): 128 bits, stable across runs.
        let first = FNV1a.hash(text.utf8)
        let second = FNV1a.hash(text.utf8, offsetBasis: 0x6c62_272e_07bb_0142)
        return CredentialPartition(rawValue: Self.hex(first) + Self.hex(second))
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The partition of `request` as it will be sent for the call in `context`: the call's account's,
    /// or that of the credentials it carries now and those the service's credential sources will add.
    ///
    /// - Parameters:
    ///   - request: the request, as the asking stage sees it.
    ///   - context: the call's context.
    /// - Returns: the partition.
    /// - Throws: what a credential source throws when it cannot say which credentials it will use.
    public static func of(_ request: Request, context: CallContext) async throws -> CredentialPartition {
        if let account = context.account { return CredentialPartition(account: account) }
        var parts: [String] = []
        for field in request.headerFields where isCredential(field.name) {
            parts.append("header:" + field.name.canonicalName + "=" + field.value)
        }
        if let query = request.query {
            for pair in query.split(separator: "&") {
                let name = pair.firstIndex(of: "=").map { pair[..<$0] } ?? pair
                if Redaction.default.isSensitive(PercentEncoding.decode(name)) { parts.append("query:" + pair) }
            }
        }
        for source in context.credentialSources {
            if let fingerprint = try await source.credentialFingerprint(for: context) {
                parts.append("stage:" + source.id.canonicalName + "=" + fingerprint)
            }
        }
        return of(parts)
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

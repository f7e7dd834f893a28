public import Foundation
import HTTPTypes

/// Answers from and stores into a ``ResponseCache`` by RFC 9111's rules for a private cache and each
/// call's ``CachePolicy``.
///
/// Register it inside the validation stage and outside decryption: it then stores plaintext
/// responses, only final `2xx` ones (not `206`), and hands a `304` on as the stored response. GET and
/// HEAD are cached; POST only for calls that opt in with ``CallOptions/cacheReadsWithPOST()`` (legacy
/// APIs that read with POST), keyed by their body too. The key (``CacheKey``) holds the request's
/// ``CredentialPartition`` — derived from the credentials the request carries and those the
/// service's credential stages will add, even when they are registered inside this stage — so an
/// entry is only ever served to a request made with the same credentials or for the same account,
/// from memory or from disk. A response whose request reached the transport with a credential the
/// partition does not account for — one a stage inside this one added, such as a dynamic
/// ``HeadersStage`` token or a fixed one the service did not declare its own
/// (``CommonHeader/fixed(_:_:isServiceCredential:)``) — is not stored: it is that credential's owner's,
/// not the partition's.
/// Register such stages outside the cache (the documented order), or name the call's account. The rest of the key leaves out the query parameters named in
/// ``excludedParameters`` — timestamps, nonces, signatures — so a new timestamp finds the same
/// entry, while another environment, path or page does not.
///
/// Freshness follows RFC 9111 §4.2 (`max-age`, `Expires`, `Date` and `Age`, the time in flight and
/// in the cache); `no-cache` and `must-revalidate` force revalidation; `no-store` (response or
/// request) is never stored; `Vary` is honoured (the varying request fields are stored with the entry
/// and compared). Heuristic freshness is used only when ``heuristicFreshness`` is on, for responses
/// with no explicit freshness and a `Last-Modified`. The table in ``CachePolicy`` says how each policy
/// sits on top. An allowed cross-origin redirect's answer is never stored as the service's.
///
/// **Versions.** When the app's model of a response changes — a new field, another meaning — a
/// version string makes what was stored before it unreachable: the stage's ``version`` for the
/// whole service, ``CallOptions/cache(_:version:)`` for one endpoint. Both are part of the key, so an
/// entry stored under other versions (or none) is never served again, from memory or from disk; it
/// leaves the stores as their budgets evict it, or with an invalidation. Entries stored without a
/// version keep their keys when versions are not used.
///
/// ```swift
/// CacheStage(cache: cache, defaultPolicy: .standard, version: "2")   // every entry of the service
/// ```
///
/// The stage is session-bound (``SessionBoundStage``): when a user's session ends it drops the
/// entries of that account, or every entry that is not public.
///
/// The response a call returns says where it came from: `network`, `memory`, `disk` or `revalidated`
/// (``Response/source``, ``CallResult/source``).
public struct CacheStage: SessionBoundStage {
    /// The context key under which ``CallOptions/cache(_:version:)`` stores a call's policy.
    public enum CallPolicy: CallOptionKey {
        /// The policy.
        public typealias Value = CachePolicy
        /// The option's name in errors.
        public static let name = "cache(_:)"
        /// ``StageID/cache``.
        public static let stage = StageID.cache
        /// Calls with different values never share a response.
        public static func identity(_ value: Value) -> String? { "\(value)" }
    }

    /// The context key under which ``CallOptions/cache(_:version:)`` stores an endpoint's version.
    enum Version: CallOptionKey {
        typealias Value = String
        static let name = "cache(_:version:)"
        static let stage = StageID.cache
        /// Calls of different versions never share a response.
        static func identity(_ value: Value) -> String? { value }
    }

    /// The context key under which ``CallOptions/invalidateCache(onSuccess:)`` stores what a call's
    /// success invalidates.
    public enum Invalidation: CallOptionKey {
        /// The services (and optionally endpoints) to invalidate.
        public typealias Value = [(service: ServiceID, endpoint: String?)]
        /// The option's name in errors.
        public static let name = "invalidateCache(onSuccess:)"
        /// ``StageID/cache``.
        public static let stage = StageID.cache
        /// A call that invalidates never joins one that does not: its own success invalidates.
        public static func identity(_ value: Value) -> String? {
            value.map { "\($0.service)/\($0.endpoint ?? "*")" }.joined(separator: ",")
        }
    }

    /// The context key under which ``CallOptions/cacheReadsWithPOST()`` marks a POST as a read.
    public enum PostReads: CallOptionKey {
        /// Whether the POST may be cached.
        public typealias Value = Bool
        /// The option's name in errors.
        public static let name = "cacheReadsWithPOST()"
        /// ``StageID/cache``.
        public static let stage = StageID.cache
        /// Calls with different values never share a response.
        public static func identity(_ value: Value) -> String? { "\(value)" }
    }

    /// The parameter names left out of keys by default (compared without case).
    public static let defaultExcludedParameters: Set<String> = SameRequestPolicy.defaultVolatileParameters.union([
        "access_token", "refresh_token", "session", "sessionid", "password", "secret", "appsecret",
    ])

    /// The cache.
    public let cache: ResponseCache
    /// The policy for calls that do not choose one.
    public let defaultPolicy: CachePolicy
    /// Query parameters left out of keys.
    public let excludedParameters: Set<String>
    /// Whether responses without explicit freshness may be fresh for a heuristic lifetime (10% of the
    /// time since `Last-Modified`, at most a day), as RFC 9111 §4.2.2 allows. Off unless turned on.
    public let heuristicFreshness: Bool
    /// The version of the app's model of this service's responses, part of every key; changing it
    /// leaves every entry stored under another one unserved. `nil` (the default) for none.
    public let version: String?
    /// The clock freshness is judged by.
    let now: @Sendable () -> Date

    /// ``StageID/cache``.
    public var id: StageID { .cache }

    /// Outside the credential stages: the partition is taken from the credentials they will add, and
    /// an answer they refresh must be stored under the new credentials' partition, not served past them.
    public var orderRules: [StageOrderRule] {
        [.outside(.authorization, .cookies, because: "the cache partitions its entries by the credentials these stages add")]
    }

    /// Creates the stage.
    ///
    /// - Parameters:
    ///   - cache: the cache to read and write.
    ///   - defaultPolicy: the policy for calls that do not choose one; ``CachePolicy/networkOnly``.
    ///   - excludedParameters: query parameters left out of keys.
    ///   - heuristicFreshness: whether heuristic lifetimes are allowed; off by default.
    ///   - version: the version of the app's model of the service's responses; bump it when that
    ///     model changes and nothing stored before is served. `nil` or empty for none.
    ///   - now: the clock freshness is judged by; the system's by default (tests pass their own).
    public init(
        cache: ResponseCache,
        defaultPolicy: CachePolicy = .networkOnly,
        excludedParameters: Set<String> = CacheStage.defaultExcludedParameters,
        heuristicFreshness: Bool = false,
        version: String? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.cache = cache
        self.defaultPolicy = defaultPolicy
        self.excludedParameters = Set(excludedParameters.map { $0.lowercased() })
        self.heuristicFreshness = heuristicFreshness
        self.version = version?.isEmpty == false ? version : nil
        self.now = now
    }

    /// The key a request is cached under.
    ///
    /// - Throws: what a credential source throws when it cannot say which credentials it will use.
    public func key(for request: Request, context: CallContext) async throws -> CacheKey {
        try await prediction(for: request, context: context).key
    }

    /// The key of `request` and the partition's prediction, to check what is sent against.
    private func prediction(for request: Request, context: CallContext) async throws -> (key: CacheKey, prediction: CredentialPrediction) {
        let prediction = try await CredentialPrediction(request, context: context, digest: cache.partitionDigest)
        let key = CacheKey.of(
            request,
            context: context,
            partition: prediction.partition,
            excluding: excludedParameters,
            version: Self.keyVersion(service: version, endpoint: context[Version.self])
        )
        return (key, prediction)
    }

    /// The service's and the endpoint's versions as one key line's text, each length-prefixed so
    /// that no two pairs read alike; `nil` when neither is set.
    static func keyVersion(service: String?, endpoint: String?) -> String? {
        let endpoint = endpoint?.isEmpty == false ? endpoint : nil
        guard service != nil || endpoint != nil else { return nil }
        return [service, endpoint].map { $0.map { "\($0.utf8.count):\($0)" } ?? "-" }.joined(separator: " ")
    }

    /// Drops the ending session's entries: those of `account` when an account is named — its own
    /// partition's, and those of calls whose credential source named it (``CredentialSource``) — and
    /// every private entry of this cache when it is not, from memory and from disk. (Entries a
    /// credential source named the account for are known from this process's stores; a disk entry
    /// an earlier process stored that way stays until it expires or every session ends.)
    public func endSession(account: String?) async {
        guard let account else {
            cache.invalidate { !$0.partition.isPublic }
            return
        }
        let partitions = cache.partitions(ofAccount: account)
        cache.invalidate { partitions.contains($0.partition) }
    }

    /// Serves, stores and revalidates by the call's policy.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        let policy = context[CallPolicy.self] ?? defaultPolicy
        guard policy != .networkOnly, isCacheable(request, context: context) else {
            let response = try await next(request, context)
            invalidateAfterWrite(response, context: context)
            return response
        }
        let (key, prediction) = try await prediction(for: request, context: context)
        let requestControl = CacheControl(request.headerFields)
        var stored = cache.entry(for: key)
        if let found = stored, !found.entry.matchesVary(of: request.headerFields) { stored = nil }
        switch policy {
        case .networkOnly:
            return try await next(request, context)
        case .cacheOnly:
            guard let stored else { throw SwitchyardError(code: .cacheMiss, message: "nothing is cached for this request") }
            return stored.entry.response(source: stored.source)
        case .standard, .cacheElseNetwork:
            if let stored, !requestControl.noCache, usable(stored.entry, policy: policy, request: requestControl) {
                return stored.entry.response(source: stored.source)
            }
            return try await fetch(request, context: context, key: key, prediction: prediction, revalidating: stored?.entry, next: next)
        case .networkElseCache:
            do {
                let response = try await fetch(request, context: context, key: key, prediction: prediction, revalidating: nil, next: next)
                if let stored, response.status.code >= 500, servableStale(stored.entry) {
                    return stored.entry.response(source: stored.source)
                }
                return response
            } catch let error as SwitchyardError where [.transport, .timeout].contains(error.code) || (error.status?.code ?? 0) >= 500 {
                guard let stored, servableStale(stored.entry) else { throw error }
                return stored.entry.response(source: stored.source)
            }
        case .revalidate, .cacheThenNetwork:
            return try await fetch(request, context: context, key: key, prediction: prediction, revalidating: stored?.entry, next: next)
        }
    }

    /// Whether the method may be cached: GET and HEAD, and POST when the call opted in and its body is
    /// in memory.
    private func isCacheable(_ request: Request, context: CallContext) -> Bool {
        switch request.method {
        case .get, .head: true
        case .post: context[PostReads.self] == true && request.body?.stream == nil
        default: false
        }
    }

    /// Whether a stored entry answers without the network under `policy` and the request's directives.
    private func usable(_ entry: CachedResponse, policy: CachePolicy, request: CacheControl) -> Bool {
        let control = entry.directives.control
        guard !control.noCache else { return false }
        let freshness = entry.freshness(at: now(), heuristic: heuristicFreshness)
        var lifetime = freshness.lifetime
        if lifetime == nil, case .cacheElseNetwork(let maxAge) = policy { lifetime = Self.seconds(maxAge) }
        guard var remaining = lifetime.map({ $0 - freshness.currentAge }) else { return false }
        if let maxAge = request.maxAge { remaining = min(remaining, TimeInterval(maxAge) - freshness.currentAge) }
        if let minFresh = request.minFresh { remaining -= TimeInterval(minFresh) }
        if remaining > 0 { return true }
        // A stale response may still serve a request that accepts staleness, unless it must be revalidated.
        guard let maxStale = request.maxStale, !control.mustRevalidate else { return false }
        return -remaining <= TimeInterval(maxStale)
    }

    /// Whether a stored entry may stand in when the network fails: never for `no-cache`, and not once
    /// stale for `must-revalidate` (RFC 9111 §4.2.4, §5.2.2.2).
    private func servableStale(_ entry: CachedResponse) -> Bool {
        let control = entry.directives.control
        if control.noCache { return false }
        return !control.mustRevalidate || entry.freshness(at: now(), heuristic: heuristicFreshness).isFresh
    }

    private func invalidateAfterWrite(_ response: Response, context: CallContext) {
        guard (200...299).contains(response.status.code), let targets = context[Invalidation.self] else { return }
        for target in targets {
            if let endpoint = target.endpoint {
                cache.invalidate(service: target.service, endpoint: endpoint)
            } else {
                cache.invalidate(service: target.service)
            }
        }
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

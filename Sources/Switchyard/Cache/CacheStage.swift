import Foundation
import HTTPTypes

/// Answers from and stores into a ``ResponseCache`` according to each call's ``CachePolicy``.
///
/// Register it inside the validation stage and outside decryption: it then stores plaintext
/// responses, only those with a 2xx status, and hands a `304` on as the stored `200`. Only GET and
/// HEAD are cached. The key (``CacheKey``) holds the request's ``CredentialPartition`` — derived from
/// the credentials the request carries and those the service's credential stages will add, even when
/// they are registered inside this stage — so an entry is only ever served to a request made with the
/// same credentials or for the same account, from memory or from disk. The rest of the key leaves out
/// the query parameters named in ``excludedParameters`` — timestamps, nonces, signatures — so a new
/// timestamp finds the same entry, while another environment, path or page does not. A response
/// marked `Cache-Control: no-store` is never stored.
///
/// The stage is session-bound (``SessionBoundStage``): when a user's session ends it drops the
/// entries of that account, or every entry that is not public.
///
/// The response a call returns says where it came from: `network`, `memory`, `disk` or `revalidated`
/// (``Response/source``, ``CallResult/source``).
public struct CacheStage: SessionBoundStage {
    /// The context key under which ``CallOptions/cache(_:)`` stores a call's policy.
    public enum CallPolicy: CallContextKey {
        /// The policy.
        public typealias Value = CachePolicy
    }

    /// The context key under which ``CallOptions/invalidateCache(onSuccess:)`` stores what a call's
    /// success invalidates.
    public enum Invalidation: CallContextKey {
        /// The services (and optionally endpoints) to invalidate.
        public typealias Value = [(service: ServiceID, endpoint: String?)]
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

    /// ``StageID/cache``.
    public var id: StageID { .cache }

    /// Creates the stage.
    public init(
        cache: ResponseCache,
        defaultPolicy: CachePolicy = .networkOnly,
        excludedParameters: Set<String> = CacheStage.defaultExcludedParameters
    ) {
        self.cache = cache
        self.defaultPolicy = defaultPolicy
        self.excludedParameters = Set(excludedParameters.map { $0.lowercased() })
    }

    /// The key a request is cached under.
    ///
    /// - Throws: what a credential source throws when it cannot say which credentials it will use.
    public func key(for request: Request, context: CallContext) async throws -> CacheKey {
        let partition = try await CredentialPartition.of(request, context: context)
        return CacheKey.of(request, context: context, partition: partition, excluding: excludedParameters)
    }

    /// Drops the ending session's entries: those of `account`'s partition when an account is named
    /// (and every private entry of this cache when it is not), from memory and from disk.
    public func endSession(account: String?) async {
        guard let account else {
            cache.invalidate { !$0.partition.isPublic }
            return
        }
        let partition = CredentialPartition(account: account)
        cache.invalidate { $0.partition == partition }
    }

    /// Serves, stores and revalidates by the call's policy.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        let policy = context[CallPolicy.self] ?? defaultPolicy
        guard policy != .networkOnly, request.method == .get || request.method == .head else {
            let response = try await next(request, context)
            invalidateAfterWrite(response, context: context)
            return response
        }
        let key = try await key(for: request, context: context)
        let stored = cache.entry(for: key)
        switch policy {
        case .networkOnly:
            return try await next(request, context)
        case .cacheOnly:
            guard let stored else { throw SwitchyardError(code: .cacheMiss, message: "nothing is cached for this request") }
            return stored.entry.response(source: stored.source)
        case .cacheElseNetwork(let maxAge):
            if let stored, stored.entry.age < Self.seconds(maxAge) { return stored.entry.response(source: stored.source) }
            return try await fetchAndStore(request, context: context, key: key, next: next)
        case .networkElseCache:
            do {
                let response = try await fetchAndStore(request, context: context, key: key, next: next)
                if let stored, response.status.code >= 500 { return stored.entry.response(source: stored.source) }
                return response
            } catch let error as SwitchyardError where [.transport, .timeout].contains(error.code) || (error.status?.code ?? 0) >= 500 {
                guard let stored else { throw error }
                return stored.entry.response(source: stored.source)
            }
        case .revalidate:
            var conditional = request
            if let etag = stored?.entry.etag { conditional.headerFields[.ifNoneMatch] = etag }
            if let modified = stored?.entry.lastModified { conditional.headerFields[.ifModifiedSince] = modified }
            let version = cache.version(of: key)
            let response = try await next(conditional, context)
            if response.status.code == 304, var entry = stored?.entry {
                entry.storedAt = Date()
                cache.store(entry, ifUnchangedSince: version)
                return entry.response(source: .revalidated)
            }
            store(response, for: conditional, key: key, ifUnchangedSince: version)
            return response
        }
    }

    private func fetchAndStore(_ request: Request, context: CallContext, key: CacheKey, next: NextStage) async throws -> Response {
        let version = cache.version(of: key)
        let response = try await next(request, context)
        store(response, for: request, key: key, ifUnchangedSince: version)
        return response
    }

    /// Stores a 2xx response unless the key was written or invalidated while it was fetched, or the
    /// answer came from another origin (an allowed cross-origin redirect): that origin's answer is
    /// never kept as the service's.
    private func store(_ response: Response, for request: Request, key: CacheKey, ifUnchangedSince version: ResponseCache.Version) {
        guard (200...299).contains(response.status.code), case .bytes(let body) = response.body, !Self.forbidsStoring(response) else {
            return
        }
        if let landed = response.url, !Self.sameOrigin(landed, request) { return }
        cache.store(
            CachedResponse(key: key, status: response.status.code, headerFields: response.headerFields, body: body),
            ifUnchangedSince: version
        )
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

    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

extension CallOptions {
    /// Uses `policy` for this call (see ``CacheStage``).
    public mutating func cache(_ policy: CachePolicy) {
        require(.cache, for: "cache(_:)")
        setContextValue(policy, for: CacheStage.CallPolicy.self)
    }

    /// When this call (a write) succeeds, removes the cached entries of these services — of one
    /// endpoint each when it is named.
    public mutating func invalidateCache(onSuccess targets: [(service: ServiceID, endpoint: String?)]) {
        require(.cache, for: "invalidateCache(onSuccess:)")
        setContextValue(targets, for: CacheStage.Invalidation.self)
    }
}

extension CacheStage {
    /// Whether `url` has the scheme, host and port `request` was sent to.
    static func sameOrigin(_ url: URL, _ request: Request) -> Bool {
        guard let origin = request.url else { return false }
        return url.scheme?.lowercased() == origin.scheme?.lowercased() && url.host?.lowercased() == origin.host?.lowercased()
            && url.port == origin.port
    }

    /// Whether the response forbids storing it: `Cache-Control: no-store` (in any letter case, among
    /// other directives).
    static func forbidsStoring(_ response: Response) -> Bool {
        response.headerFields[values: .cacheControl].contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "no-store" }
        }
    }
}

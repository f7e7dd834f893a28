public import Foundation
import HTTPTypes

/// Keeps the cookies a service's server sets and sends them back, by RFC 6265 — opt in by registering
/// it in the service's stages; a service without it keeps no cookies.
///
/// ```swift
/// Service(.shop, baseURL: "https://shop.example.com", stages: [CookieStage(), LoggingStage()], transport: transport)
/// ```
///
/// On the way in it adds the cookies stored for the request's URL to its `Cookie` field (after any
/// the request already carries); on the way out it stores the response's `Set-Cookie` fields — an
/// error response's too. Redirects the service follows store and send cookies hop by hop, each hop's
/// own. It works with every transport: the transports keep no cookies of their own
/// (`URLSessionTransport.sharedSession` has its cookie storage off).
///
/// - **Parsing and matching** follow RFC 6265 §5 on every platform (not Foundation's `HTTPCookie`):
///   a cookie without `Domain` is host-only (sent to that host alone); one with `Domain` is sent to
///   the domain and its subdomains, and only stored when the response's host is within it and it is
///   no public suffix (`com`, `co.uk`, `herokuapp.com`: the Public Suffix List, compiled in — a
///   host that is itself one gets a host-only cookie); `Path` matches by path segments (default:
///   the request's directory).
/// - **`Secure`** cookies are sent over `https` only; an `http` response can neither set one nor
///   replace, delete or shadow one. The name prefixes are enforced: `__Secure-` cookies need
///   `Secure`, `__Host-` ones `Secure`, no `Domain` and `Path=/`.
/// - **Expiry**: `Max-Age` wins over `Expires` (whose dates are parsed leniently, §5.1.1); a
///   cookie in the past deletes the stored one; none lives longer than 400 days; cookies without
///   either last until the session ends. Time comes from `now`, which tests replace.
/// - **Limits** (§6.1), explicit: a `Set-Cookie` value longer than `maximumCookieSize` bytes is
///   ignored; past `maximumCookiesPerDomain` for a domain or `maximumCookies` in a jar, the least
///   recently used cookies go first.
/// - **Partitions**: one jar per service, environment (``ServerEnvironment``: a test server's cookies
///   never reach production) and account (``CallOptions/account``; calls that name none share the
///   service's default jar), like the cache: one account's cookies are never sent for another. Jars are in memory only — nothing is written to disk. The stage is a
///   ``CredentialSource``: a ``CacheStage`` or the same-request check registered outside it
///   partitions by the account, or by the cookies the jar holds when the call names none.
/// - **Sessions**: the stage is session-bound (``SessionBoundStage``): ending a session
///   (``APIClient/endSession(for:account:)``) drops that account's cookies, or every cookie.
/// - **Secrets**: cookies are credentials. `Cookie` and `Set-Cookie` are in the default
///   ``Redaction``, so ``LoggingStage`` and HAR recordings hide them, and no error names a cookie.
///   A call to a foreign origin (``CallOptions/allowsForeignOrigin``) neither sends nor stores any.
///
/// Register it outside the cache, as the other credential stages.
public struct CookieStage: SessionBoundStage, CredentialSource {
    let jar: CookieJar
    /// The clock expiry is judged by.
    let now: @Sendable () -> Date

    /// ``StageID/cookies``.
    public var id: StageID { .cookies }

    /// Creates the stage with an empty store.
    ///
    /// - Parameters:
    ///   - maximumCookieSize: the longest `Set-Cookie` value stored, in bytes: 4096, RFC 6265's minimum.
    ///   - maximumCookiesPerDomain: the most cookies kept per domain in one account's jar: 50.
    ///   - maximumCookies: the most cookies kept in one account's jar: 3000.
    ///   - now: the clock expiry is judged by; the system's by default (tests pass their own).
    public init(
        maximumCookieSize: Int = 4096,
        maximumCookiesPerDomain: Int = 50,
        maximumCookies: Int = 3000,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.jar = CookieJar(
            limits: .init(cookieSize: maximumCookieSize, perDomain: max(1, maximumCookiesPerDomain), total: max(1, maximumCookies))
        )
        self.now = now
    }

    /// Adds the stored cookies to the request and stores those the response sets.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        guard !context.isForeignOrigin, let url = request.url else { return try await next(request, context) }
        let exchange = CookieExchange(
            jar: jar,
            partition: .init(service: context.serviceID, environment: context.environment, account: context.account),
            now: now,
            own: request.headerFields[.cookie]
        )
        var request = request
        exchange.attach(to: &request)
        var context = context
        context.cookieExchange = exchange
        do {
            let response = try await next(request, context)
            exchange.store(response, from: url)
            return response
        } catch let error as SwitchyardError {
            if let response = error.response { exchange.store(response, from: url) }
            throw error
        }
    }

    /// `account:<name>` for a call that names its account; otherwise a fingerprint of the cookies the
    /// service's default jar holds (never the cookies themselves), or `nil` when it holds none.
    public func credentialFingerprint(for context: CallContext) async throws -> String? {
        if let account = context.account { return "account:" + account }
        let partition = CookieJar.Partition(service: context.serviceID, environment: context.environment, account: nil)
        return jar.contents(of: partition, now: now()).map { "cookies:" + CredentialPartition.fingerprint(of: $0) }
    }

    /// The `Cookie` field, where the stage puts the cookies.
    public var credentialNames: Set<String> { [HTTPField.Name.cookie.canonicalName] }

    /// Drops the cookies of `account`, or every cookie of the stage when `account` is `nil`.
    public func endSession(account: String?) async {
        jar.drop(account: account)
    }
}

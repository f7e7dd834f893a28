/// How a service's calls follow HTTP redirects — the same whichever transport carries them, because
/// transports return `3xx` answers as they are and the pipeline follows them by this policy.
///
/// By default a call follows up to five redirects to the service's own origin (scheme, host and
/// port), never from `https` to `http`, and refuses a redirect to another origin with
/// ``SwitchyardError/Code/redirect`` — so no token, key, signature or body ever reaches an origin the
/// service did not name. A service that must follow redirects elsewhere (a download handed off to a
/// CDN) allows it with ``CrossOrigin/followWithoutCredentials``: the request then goes on with only
/// the plain header fields of ``safeHeaderFields`` — nothing a stage added, nothing secret — and
/// without a body.
///
/// ```swift
/// ServiceDefaults(redirects: RedirectPolicy(maximum: 3, crossOrigin: .followWithoutCredentials))
/// ```
///
/// The call's result says where it ended: ``CallResult/finalURL`` and ``CallResult/redirectCount``.
public struct RedirectPolicy: Sendable, Hashable {
    /// What to do with a redirect to another origin.
    public enum CrossOrigin: Sendable, Hashable {
        /// Fail the call with ``SwitchyardError/Code/redirect`` (the default).
        case refuse
        /// Follow it with only ``RedirectPolicy/safeHeaderFields`` and no body; a `307`/`308` that must
        /// resend a body is refused.
        case followWithoutCredentials
    }

    /// The most redirects one call follows; `0` returns every `3xx` answer to the stages as it is.
    public var maximum: Int
    /// What to do with a redirect to another origin.
    public var crossOrigin: CrossOrigin

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maximum: the most redirects one call follows; 5 by default.
    ///   - crossOrigin: what to do with a redirect to another origin; refuse by default.
    public init(maximum: Int = 5, crossOrigin: CrossOrigin = .refuse) {
        self.maximum = max(0, maximum)
        self.crossOrigin = crossOrigin
    }

    /// Same-origin redirects only, at most five.
    public static let `default` = RedirectPolicy()

    /// Never follow: a `3xx` answer comes back to the stages as it is.
    public static let never = RedirectPolicy(maximum: 0)

    /// The header fields a cross-origin redirect keeps (when it is followed at all).
    public static let safeHeaderFields: Set<String> = ["accept", "accept-language", "accept-encoding", "user-agent"]
}

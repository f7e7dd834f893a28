/// What happens when a call is made while an identical one is still in flight — set per endpoint
/// (in its ``Endpoint/options``) or per call with ``CallOptions/sameRequest``.
///
/// "Identical" means the same canonical request: service, environment, method, path (with its
/// parameters), and parameters sorted by name — with the volatile ones (timestamps, nonces,
/// signatures, tokens) left out, so two calls that differ only in those still match, while page 1
/// and page 2 never do.
public struct SameRequestPolicy: Sendable, Hashable {
    /// What to do with the new call.
    public enum Action: Sendable, Hashable {
        /// Send it as usual (the default).
        case allow
        /// Share the call in flight: one network call, every caller gets its result.
        case coalesce
        /// Cancel the call in flight (it ends with `cancelled`) and send the new one.
        case cancelPrevious
        /// Refuse the new call with ``SwitchyardError/Code/refused``; the one in flight goes on.
        case refuseNew
    }

    /// The action.
    public var action: Action
    /// Parameter names left out of the identity; compared without case.
    public var volatileParameters: Set<String>

    /// The parameters left out by default.
    public static let defaultVolatileParameters: Set<String> = [
        "ts", "timestamp", "_", "nonce", "sign", "signature", "token", "access_token", "requestid", "request_id", "t",
    ]

    /// Creates a policy.
    public init(_ action: Action, volatileParameters: Set<String> = SameRequestPolicy.defaultVolatileParameters) {
        self.action = action
        self.volatileParameters = Set(volatileParameters.map { $0.lowercased() })
    }

    /// Identical calls each go out (the default).
    public static let allow = SameRequestPolicy(.allow)
    /// Identical calls in flight share one network call.
    public static let coalesce = SameRequestPolicy(.coalesce)
    /// A new identical call cancels the one in flight.
    public static let cancelPrevious = SameRequestPolicy(.cancelPrevious)
    /// A new identical call is refused while one is in flight.
    public static let refuseNew = SameRequestPolicy(.refuseNew)
}

extension SameRequestPolicy {
    /// The option under which ``CallOptions/sameRequest`` chooses a call's policy; the later wins.
    enum Option: ClientOptionKey {
        typealias Value = SameRequestPolicy
        static let name = "sameRequest"
    }
}

extension CallOptions {
    /// What to do when an identical call is in flight; `nil` keeps the endpoint's choice (or allow).
    public var sameRequest: SameRequestPolicy? {
        get { self[option: SameRequestPolicy.Option.self] }
        set { self[option: SameRequestPolicy.Option.self] = newValue }
    }
}

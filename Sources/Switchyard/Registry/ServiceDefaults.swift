public import Foundation
public import HTTPTypes

/// What a service's calls use unless an endpoint or a call says otherwise.
///
/// ```swift
/// var defaults = ServiceDefaults()
/// defaults.timeout = .seconds(15)
/// defaults.parameterEncoding = .form
/// defaults.headerFields[.accept] = "application/json"
/// ```
public struct ServiceDefaults: Sendable {
    /// How long one attempt may take; `nil` for no limit. 60 seconds unless changed.
    public var timeout: Duration?
    /// The longest a whole call may take, retries included; `nil` (the default) for no overall limit.
    public var deadline: Duration?
    /// Where parameters go when an endpoint does not choose; ``ParameterEncoding/automatic`` unless changed.
    /// A body encoding set here applies only to methods that carry a body: GET, HEAD, DELETE and OPTIONS
    /// calls put their parameters in the query (see ``ParameterEncoding``).
    public var parameterEncoding: ParameterEncoding
    /// How arrays are flattened into queries and form bodies.
    public var queryArrayStyle: QueryArrayStyle
    /// Header fields added to every request of the service (an endpoint's own fields of the same name win).
    public var headerFields: HTTPFields
    /// The response statuses that count as success; anything else fails the call with
    /// ``SwitchyardError/Code/httpStatus``. `200...299` unless changed.
    public var acceptableStatusCodes: ClosedRange<Int>
    /// Makes the decoder for Decodable outputs (set date or key strategies here); called once, when
    /// the service is registered, and the decoder is shared by the service's calls.
    public var makeDecoder: @Sendable () -> JSONDecoder
    /// Makes the encoder for explicit JSON bodies (``RequestBody/json(_:)``); called once, when the
    /// service is registered. Keys are always sorted so that bodies are deterministic. Loose
    /// ``Parameters`` are always encoded with a plain encoder, so key strategies never rename them.
    public var makeEncoder: @Sendable () -> JSONEncoder
    /// How the service's calls follow redirects (the same in every transport).
    public var redirects: RedirectPolicy
    /// Whether the service's calls keep the response body as received in ``CallResult/rawBody``
    /// (a call decides for itself with ``CallOptions/keepsRawBody``); off unless changed, since it
    /// holds a second copy of each body while the result lives.
    public var keepsRawBody: Bool
    /// Whether and how the service's calls record what each stage did to them (``PipelineTrace``),
    /// returned in ``CallResult/trace`` (a call decides for itself with ``CallOptions/trace``); off
    /// unless changed. A call that is not traced pays nothing for it.
    public var trace: PipelineTrace.Detail?
    /// A path on the service, such as `/health`, that a call waiting for connectivity
    /// (``CallOptions/waitsForConnectivity``) asks while the client's ``Connectivity`` is unreachable,
    /// instead of resending itself: a `GET` straight through the service's transport, with none of its
    /// stages (so no credentials), whose any answer makes the signal reachable and sends every
    /// waiting call. `nil` (the default): the waiting calls themselves are the probes.
    public var connectivityProbe: String?

    /// Creates defaults.
    ///
    /// - Parameters:
    ///   - timeout: per-attempt timeout.
    ///   - deadline: the overall limit for a call, retries included.
    ///   - parameterEncoding: default parameter encoding.
    ///   - queryArrayStyle: how arrays are flattened.
    ///   - headerFields: header fields for every request.
    ///   - acceptableStatusCodes: statuses that count as success.
    ///   - makeDecoder: makes the JSON decoder for outputs.
    ///   - makeEncoder: makes the JSON encoder for bodies.
    ///   - redirects: how the service's calls follow redirects; same-origin only by default.
    ///   - keepsRawBody: whether calls keep the body as received in their results.
    ///   - trace: whether and how calls record what each stage did to them; off by default.
    public init(
        timeout: Duration? = .seconds(60),
        deadline: Duration? = nil,
        parameterEncoding: ParameterEncoding = .automatic,
        queryArrayStyle: QueryArrayStyle = .brackets,
        headerFields: HTTPFields = [:],
        acceptableStatusCodes: ClosedRange<Int> = 200...299,
        makeDecoder: @escaping @Sendable () -> JSONDecoder = { JSONDecoder() },
        makeEncoder: @escaping @Sendable () -> JSONEncoder = { JSONEncoder() },
        redirects: RedirectPolicy = .default,
        keepsRawBody: Bool = false,
        trace: PipelineTrace.Detail? = nil
    ) {
        self.redirects = redirects
        self.keepsRawBody = keepsRawBody
        self.trace = trace
        self.timeout = timeout
        self.deadline = deadline
        self.parameterEncoding = parameterEncoding
        self.queryArrayStyle = queryArrayStyle
        self.headerFields = headerFields
        self.acceptableStatusCodes = acceptableStatusCodes
        self.makeDecoder = makeDecoder
        self.makeEncoder = makeEncoder
    }
}

extension ServiceDefaults {
    /// The option under which ``CallOptions/acceptableStatusCodes`` replaces
    /// ``ServiceDefaults/acceptableStatusCodes`` for a call; the later wins.
    enum AcceptableStatusCodes: ClientOptionKey {
        typealias Value = ClosedRange<Int>
        static let name = "acceptableStatusCodes"
    }
}

extension CallOptions {
    /// Statuses that count as success for this call; `nil` keeps the service's.
    public var acceptableStatusCodes: ClosedRange<Int>? {
        get { self[option: ServiceDefaults.AcceptableStatusCodes.self] }
        set { self[option: ServiceDefaults.AcceptableStatusCodes.self] = newValue }
    }
}

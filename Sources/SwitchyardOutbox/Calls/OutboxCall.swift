public import HTTPTypes
public import Switchyard

/// A call as the app describes it, to be stored by an ``Outbox`` and sent later through its
/// service's pipeline — never the signed or encrypted request: the token, common parameters, nonce
/// and signature are made fresh when the call finally goes.
///
/// ```swift
/// let call = OutboxCall(.shop, .post, "/orders", body: try .json(order), queue: "orders", tags: ["checkout"], account: "user-42")
/// let id = try await outbox.enqueue(call)
/// ```
///
/// Header fields that carry credentials (`Authorization`, `Proxy-Authorization`, `Cookie`) are
/// refused at enqueue: the pipeline's stages add them when the call is sent.
public struct OutboxCall: Sendable {
    /// What to call, as a call made at the call site describes it: service, method, path template,
    /// path parameters, parameters, header fields and parameter encoding. It carries no body (the
    /// body is ``body``, in a form that survives a restart) and no options (each attempt's are the
    /// outbox's: its deadline, ``tags`` and ``account``).
    public internal(set) var endpoint: DynamicEndpoint<Response>
    /// An explicit body.
    public var body: OutboxBody?
    /// The queue: calls of one queue go one at a time in the order they were enqueued; queues do not
    /// wait for each other.
    public var queue: String
    /// Tags, to cancel or remove calls by and to find them in the call's tags when it is sent.
    public var tags: Set<RequestTag>
    /// The account the call belongs to (``CallOptions/account`` when it is sent); see
    /// ``Outbox/endSession(account:parking:)``.
    public var account: String?

    /// Creates a call description; the first seven parameters are those of a
    /// `DynamicEndpoint`, the body one that survives a restart.
    public init(
        _ service: ServiceID,
        _ method: HTTPRequest.Method,
        _ path: String,
        pathParameters: [String: String] = [:],
        parameters: Parameters = [:],
        body: OutboxBody? = nil,
        headerFields: HTTPFields = [:],
        encoding: ParameterEncoding? = nil,
        queue: String = "default",
        tags: Set<RequestTag> = [],
        account: String? = nil
    ) {
        self.endpoint = DynamicEndpoint(
            service: service,
            method: method,
            path: path,
            pathParameters: pathParameters,
            parameters: parameters,
            headerFields: headerFields,
            encoding: encoding
        )
        self.body = body
        self.queue = queue
        self.tags = tags
        self.account = account
    }
}

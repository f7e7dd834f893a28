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
    /// The service.
    public var service: ServiceID
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path template, such as `/orders/{id}`.
    public var path: String
    /// Values for the path template's placeholders.
    public var pathParameters: [String: String]
    /// Parameters for the query or the body, as for any call.
    public var parameters: Parameters
    /// An explicit body.
    public var body: OutboxBody?
    /// Header fields for this call.
    public var headerFields: HTTPFields
    /// The queue: calls of one queue go one at a time in the order they were enqueued; queues do not
    /// wait for each other.
    public var queue: String
    /// Tags, to cancel or remove calls by and to find them in the call's tags when it is sent.
    public var tags: Set<RequestTag>
    /// The account the call belongs to (``CallOptions/account`` when it is sent); see
    /// ``Outbox/endSession(account:parking:)``.
    public var account: String?

    /// Creates a call description.
    public init(
        _ service: ServiceID,
        _ method: HTTPRequest.Method,
        _ path: String,
        pathParameters: [String: String] = [:],
        parameters: Parameters = [:],
        body: OutboxBody? = nil,
        headerFields: HTTPFields = [:],
        queue: String = "default",
        tags: Set<RequestTag> = [],
        account: String? = nil
    ) {
        self.service = service
        self.method = method
        self.path = path
        self.pathParameters = pathParameters
        self.parameters = parameters
        self.body = body
        self.headerFields = headerFields
        self.queue = queue
        self.tags = tags
        self.account = account
    }
}

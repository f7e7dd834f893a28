public import Switchyard
import Synchronization

/// A transport that answers from closures or canned ``MockResponse``s and records every request it
/// receives, for assertions about what reached the wire and in what order.
///
/// ```swift
/// let transport = MockTransport(.json(#"{"id":1,"name":"Ada"}"#))
/// try registry.register(Service(.users, baseURL: "https://api.test", stages: stages, transport: transport))
/// _ = try await client.send(GetUser(id: 1))
/// #expect(transport.requests.first?.path == "/users/1")
/// ```
public final class MockTransport: Transport {
    private struct Log {
        var requests: [Request] = []
        var contexts: [CallContext] = []
        var nextIndex = 0
    }

    /// The transport's name in pipeline descriptions.
    public let name: String
    private let answers: [MockResponse]
    private let repeatsLast: Bool
    private let log = Mutex(Log())

    /// Creates a transport that gives the same answer to every request.
    public convenience init(_ answer: MockResponse, name: String = "MockTransport") {
        self.init(answers: [answer], repeatsLast: true, name: name)
    }

    /// Creates a transport that answers from a closure.
    public convenience init(name: String = "MockTransport", _ respond: @escaping @Sendable (Request, CallContext) async throws -> Response)
    {
        self.init(answers: [MockResponse(respond)], repeatsLast: true, name: name)
    }

    /// Creates a transport that gives the answers in order; after the last one, it repeats the last
    /// one (`repeatsLast: true`, the default) or fails with ``SwitchyardError/Code/transport``.
    public convenience init(sequence: [MockResponse], repeatsLast: Bool = true, name: String = "MockTransport") {
        self.init(answers: sequence, repeatsLast: repeatsLast, name: name)
    }

    private init(answers: [MockResponse], repeatsLast: Bool, name: String) {
        self.answers = answers
        self.repeatsLast = repeatsLast
        self.name = name
    }

    /// Records the request and answers it.
    public func send(_ request: Request, context: CallContext) async throws -> Response {
        let index = log.withLock { log in
            log.requests.append(request)
            log.contexts.append(context)
            defer { log.nextIndex += 1 }
            return log.nextIndex
        }
        let answer: MockResponse
        if index < answers.count {
            answer = answers[index]
        } else if repeatsLast, let last = answers.last {
            answer = last
        } else {
            throw SwitchyardError(
                code: .transport,
                message: "MockTransport has no answer for request \(index + 1); it was given \(answers.count)"
            )
        }
        // Report what a real transport would, through the calls any transport uses: started, the whole
        // body sent, the whole response received.
        if context.observesTransfer {
            context.reportTransferStarted()
            if let body = request.body?.bytes {
                context.reportSent(TransferProgress(completed: Int64(body.count), total: Int64(body.count)))
            }
        }
        let response = try await answer.respond(request, context)
        if context.observesTransfer {
            context.reportReceived(TransferProgress(completed: Int64(response.body.count), total: Int64(response.body.count)))
        }
        return response
    }

    /// Every request received, in order.
    public var requests: [Request] { log.withLock { $0.requests } }

    /// The context of every request received, in order.
    public var contexts: [CallContext] { log.withLock { $0.contexts } }

    /// How many requests were received.
    public var requestCount: Int { log.withLock { $0.requests.count } }

    /// Forgets the recorded requests and starts the answers from the beginning.
    public func reset() { log.withLock { $0 = Log() } }
}

/// What one stage did to one attempt of a call: a step of a ``PipelineTrace``.
public struct StageTrace: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How a stage's work ended.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// It passed the request on once and returned a response.
        case passed
        /// It returned a response without passing the request on (a cache hit, a stub, a replay).
        case answered
        /// It passed the request on more than once (a retry, a refreshed token).
        case retried
        /// It threw (``StageTrace/error``).
        case threw
    }

    /// The stage; ``StageID/transport`` for the exchange with the transport.
    public var stage: StageID
    /// The attempt the stage ran in (``CallContext/attempt``), from 1.
    public var attempt: Int
    /// The request as the stage received it against the request as it passed it on; empty when the
    /// stage changed nothing or passed nothing on.
    public var request: MessageDiff
    /// The response as it came back to the stage against the response the stage returned; empty
    /// when the stage changed nothing, or returned a response it made itself (then
    /// ``MessageDiff/bodyAfter`` describes it).
    public var response: MessageDiff
    /// The stage's own time: the stages inside it and the transport excluded; for the transport, its
    /// whole exchange.
    public var duration: Duration
    /// How its work ended.
    public var outcome: Outcome
    /// How many times it passed the request on.
    public var handOvers: Int
    /// When it threw: the error's code and message, redacted; `nil` otherwise.
    public var error: String?
    /// The transport's step only: the request as it was sent, redacted.
    public var sent: TracedMessage?
    /// The transport's step only: the answer as it was received, redacted; `nil` when none came.
    public var received: TracedMessage?

    /// Creates a step.
    ///
    /// - Parameters:
    ///   - stage: the stage.
    ///   - attempt: the attempt, from 1.
    ///   - request: what it changed in the request.
    ///   - response: what it changed in the response.
    ///   - duration: its own time.
    ///   - outcome: how its work ended.
    ///   - handOvers: how many times it passed the request on.
    ///   - error: the redacted error, when it threw.
    ///   - sent: the request as sent, for the transport.
    ///   - received: the answer as received, for the transport.
    public init(
        stage: StageID,
        attempt: Int,
        request: MessageDiff = MessageDiff(),
        response: MessageDiff = MessageDiff(),
        duration: Duration = .zero,
        outcome: Outcome = .passed,
        handOvers: Int = 1,
        error: String? = nil,
        sent: TracedMessage? = nil,
        received: TracedMessage? = nil
    ) {
        self.stage = stage
        self.attempt = attempt
        self.request = request
        self.response = response
        self.duration = duration
        self.outcome = outcome
        self.handOvers = handOvers
        self.error = error
        self.sent = sent
        self.received = received
    }

    /// `[1] signing +header X-Signature=<redacted> · 2.1µs`.
    public var description: String {
        var parts = ["[\(attempt)] \(stage)"]
        if let sent { parts.append(sent.line + (received.map { " → " + $0.line } ?? "")) }
        let changes = request.changes + response.changes
        parts += changes.map(\.description)
        if let after = response.bodyAfter, request.isEmpty, response.changes.isEmpty, outcome == .answered {
            parts.append("answered \(after)")
        }
        if outcome == .retried { parts.append("sent \(handOvers) times") }
        if let error { parts.append("threw \(error)") }
        return parts.joined(separator: " ") + " · " + StageTimings.microseconds(duration)
    }
}

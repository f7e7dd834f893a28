public import Foundation
public import HTTPTypes

/// What a call returns: its output plus what is known about how it was obtained — the whole result:
/// the answer's status and fields, the request as it was sent, the endpoint and tags, where the answer
/// came from, and, when asked for, the body as it was received.
///
/// ```swift
/// let result = try await client.send(GetUser(id: 7))
/// print(result.value.name, result.status.code, result.attempts, result.duration, result.source)
/// print(result.endpointName, result.tags, result.sentRequest!)   // GET https://… [Authorization: <redacted>; …]
/// ```
public struct CallResult<Output: Sendable>: Sendable {
    /// The decoded output.
    public var value: Output
    /// The final response's status.
    public var status: HTTPResponse.Status
    /// The final response's header fields.
    public var headerFields: HTTPFields
    /// The call's identifier.
    public var requestID: RequestID
    /// The endpoint's name: its ``Endpoint/name``, such as `GetUser` or `GET /users/{id}`.
    public var endpointName = ""
    /// The call's tags, the endpoint's and the call's options' together.
    public var tags: Set<RequestTag> = []
    /// The request as it was sent: the last one that reached the transport, after every stage
    /// (common parameters, headers, the token, signing…) and before redirects; `nil` when none did —
    /// a stage answered (a cache hit), or the call joined an identical call in flight
    /// (``ResponseSource/shared``).
    ///
    /// Its description hides credentials (``Redaction/default``): printing it never shows a token.
    /// The value itself carries what was sent, secrets included — handle it as you would the call.
    public var sentRequest: Request?
    /// The body as the transport received it, before any stage (decryption, null stripping, the
    /// envelope) rewrote it for decoding; `nil` unless the call or its service keeps it
    /// (``CallOptions/keepsRawBody``, ``ServiceDefaults/keepsRawBody``), or when no transport
    /// answered (a cache hit, a joined call) or the body went to a file (a download).
    public var rawBody: Data?
    /// The service the call went to.
    public var serviceID: ServiceID
    /// The environment the call was addressed to.
    public var environment: ServerEnvironment
    /// How many requests reached the transport (0 when a stage answered without it).
    public var attempts: Int
    /// The time from the start of the call to its decoded output.
    public var duration: Duration
    /// Where the response came from.
    public var source: ResponseSource
    /// How many redirects were followed to get the response (``RedirectPolicy``).
    public var redirectCount: Int = 0
    /// The URL the response came from after redirects; `nil` when none were followed.
    public var finalURL: URL?
    /// What stages learned about the response: the envelope's code and message
    /// (`result.metadata[EnvelopeStage.Outcome.self]`), …
    public var metadata = ResponseMetadata()

    /// Where the call's time went, stage by stage, when it asked with
    /// ``CallOptions/recordsStageTimings``; `nil` otherwise.
    public var stageTimings: StageTimings? { metadata[StageTimings.self] }

    /// What each stage did to the call, when it was traced (``CallOptions/trace``,
    /// ``ServiceDefaults/trace``); `nil` otherwise.
    public var trace: PipelineTrace? { metadata[PipelineTrace.self] }

    /// The same metadata with another value (for wrappers that transform outputs).
    public func map<NewOutput: Sendable>(_ transform: (Output) throws -> NewOutput) rethrows -> CallResult<NewOutput> {
        var mapped = CallResult<NewOutput>(
            value: try transform(value),
            status: status,
            headerFields: headerFields,
            requestID: requestID,
            serviceID: serviceID,
            environment: environment,
            attempts: attempts,
            duration: duration,
            source: source
        )
        mapped.endpointName = endpointName
        mapped.tags = tags
        mapped.sentRequest = sentRequest
        mapped.rawBody = rawBody
        mapped.redirectCount = redirectCount
        mapped.finalURL = finalURL
        mapped.metadata = metadata
        return mapped
    }
}

extension CallOptions {
    /// The option under which ``CallOptions/keepsRawBody`` chooses whether a call keeps
    /// ``CallResult/rawBody``; the later wins.
    enum KeepsRawBody: ClientOptionKey {
        typealias Value = Bool
        static let name = "keepsRawBody"
    }

    /// The option under which ``CallOptions/recordsStageTimings`` turns on
    /// ``CallResult/stageTimings``; on when either side turns it on.
    enum RecordsStageTimings: ClientOptionKey {
        typealias Value = Bool
        static let name = "recordsStageTimings"
        static func merge(_ earlier: Bool, _ later: Bool) -> Bool { earlier || later }
    }

    /// The option under which ``CallOptions/trace`` turns on ``CallResult/trace``; the later wins.
    enum Trace: ClientOptionKey {
        typealias Value = PipelineTrace.Detail
        static let name = "trace"
    }

    /// Whether and how the call records what each stage did to it (``PipelineTrace``), returned in
    /// ``CallResult/trace`` or, when it fails, ``SwitchyardError/trace``; `nil` keeps the service's
    /// choice (``ServiceDefaults/trace``, off unless changed). A traced call also records its
    /// ``CallResult/stageTimings``. A call that is not traced pays nothing for it.
    public var trace: PipelineTrace.Detail? {
        get { self[option: Trace.self] }
        set { self[option: Trace.self] = newValue }
    }

    /// Whether the call keeps the response body as the transport received it, before any stage
    /// rewrote it, in ``CallResult/rawBody``; `nil` keeps the service's choice
    /// (``ServiceDefaults/keepsRawBody``, off unless changed). It holds a second copy of the body for
    /// as long as the result lives: turn it on where the bytes are needed (a signature check of your
    /// own, a bug report).
    public var keepsRawBody: Bool? {
        get { self[option: KeepsRawBody.self] }
        set { self[option: KeepsRawBody.self] = newValue }
    }

    /// Whether the call records each stage's own time and the transport's: returned in
    /// ``CallResult/stageTimings`` and logged at trace level. Off by default; costs two clock reads
    /// per stage when on.
    public var recordsStageTimings: Bool {
        get { self[option: RecordsStageTimings.self] ?? false }
        set { self[option: RecordsStageTimings.self] = newValue ? true : nil }
    }
}

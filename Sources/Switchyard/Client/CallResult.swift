public import Foundation
public import HTTPTypes

/// What a call returns: its output plus what is known about how it was obtained.
///
/// ```swift
/// let result = try await client.send(GetUser(id: 7))
/// print(result.value.name, result.status.code, result.attempts, result.duration, result.source)
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
        mapped.redirectCount = redirectCount
        mapped.finalURL = finalURL
        mapped.metadata = metadata
        return mapped
    }
}

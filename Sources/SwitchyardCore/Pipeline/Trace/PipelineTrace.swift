/// What every stage of a call's pipeline did to it, stage by stage and attempt by attempt: the
/// request as each stage received it and as it passed it on, the response as it came back to the stage
/// and as the stage returned it — as diffs — with the stage's own time and whether it answered by
/// itself, sent more than once or threw.
///
/// Off unless asked for, per service (`ServiceDefaults.trace`) or per call (`CallOptions.trace`),
/// and free when off. Every value in it went through the same redaction as log lines
/// (``Redaction``): a trace never holds a secret a log line would hide. Read it on the result
/// (`CallResult.trace`), on the error of a failed call (``SwitchyardError/trace``), in a stage's
/// unit test (`HarnessRun.trace` of the testing support), or in a HAR archive's `_stages` fields.
///
/// ```swift
/// var options = CallOptions()
/// options.trace = .diffs
/// let result = try await client.send(GetUser(id: 7), options: options)
/// for step in result.trace?.steps ?? [] { print(step) }
/// // [1] commonParameters +query app_version=3.2 · 0.8µs
/// // [1] signing +header X-Signature=<redacted> · 2.1µs
/// // [1] transport GET https://api.test/users/7?app_version=3.2 → 200 · 212.5µs
/// ```
public struct PipelineTrace: Sendable, Hashable, Codable, ResponseMetadataKey, CustomStringConvertible {
    /// The value a response's metadata holds: the trace itself.
    public typealias Value = PipelineTrace

    /// How much a trace keeps.
    public enum Detail: String, Sendable, Hashable, Codable {
        /// Diffs, body sizes, media types and digests: never a body's text.
        case diffs
        /// Diffs, and the redacted text of the request as sent and of the answer as received, each cut
        /// after 64 KiB (``TracedMessage/bodyText``).
        case bodies
    }

    /// One entry per stage each time it ran, in the order stages were entered: outermost first, the
    /// stages inside a retrying stage once per attempt, the transport (``StageID/transport``) last of
    /// each attempt. A stage skipped for the call is absent.
    public var steps: [StageTrace]

    /// The names whose values the trace shows redacted — header fields, parameters, JSON members —
    /// sorted and without repeats: what the redaction rules hid.
    public var redactedNames: [String]

    /// Creates a trace from steps.
    ///
    /// - Parameters:
    ///   - steps: the steps, in the order stages were entered.
    ///   - redactedNames: the names whose values the steps show redacted.
    public init(steps: [StageTrace], redactedNames: [String] = []) {
        self.steps = steps
        self.redactedNames = redactedNames
    }

    /// The first step of `stage`, if it ran.
    ///
    /// - Parameter stage: a stage id.
    public subscript(stage: StageID) -> StageTrace? {
        steps.first { $0.stage == stage }
    }

    /// Every step of `stage`: one per attempt that reached it.
    ///
    /// - Parameter stage: a stage id.
    /// - Returns: its steps, in order.
    public func steps(of stage: StageID) -> [StageTrace] {
        steps.filter { $0.stage == stage }
    }

    /// How many attempts reached a stage: 1 unless a stage sent the request again (a retry).
    public var attempts: Int { steps.map(\.attempt).max() ?? 0 }

    /// One line per step.
    public var description: String {
        steps.map(\.description).joined(separator: "\n")
    }
}

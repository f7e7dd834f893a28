/// Where one call's time went, stage by stage: recorded when the call asks for it with
/// `CallOptions.recordsStageTimings`, returned in `CallResult.stageTimings` (and in the call's
/// ``ResponseMetadata``), and logged at trace level.
///
/// ```swift
/// var options = CallOptions()
/// options.recordsStageTimings = true
/// let result = try await client.send(.users, .get, "/users/7", options: options)
/// print(result.stageTimings?.line ?? "")
/// // stages: signing 3.1µs+0.0µs, logging 1.2µs+2.0µs, transport 212.5µs+0.0µs
/// ```
public struct StageTimings: Sendable, Hashable, ResponseMetadataKey {
    /// The value the metadata holds: the timings themselves.
    public typealias Value = StageTimings

    /// The stages in the order a request passes them, outermost first, the transport last. A stage
    /// skipped for the call is absent.
    public var entries: [StageTiming]

    /// Creates timings from entries.
    ///
    /// - Parameter entries: the stages' timings, outermost first.
    public init(entries: [StageTiming]) {
        self.entries = entries
    }

    /// The timing of `stage`, if it ran.
    ///
    /// - Parameter stage: a stage id.
    /// - Returns: its timing.
    public subscript(stage: StageID) -> StageTiming? {
        entries.first { $0.stage == stage }
    }

    /// All stages' own time and the transport's, summed.
    public var total: Duration { entries.reduce(.zero) { $0 + $1.total } }

    /// One line for a log: `stages: a 1.0µs+0.2µs, b …, transport 210.0µs+0.0µs`.
    public var line: String {
        "stages: " + entries.map(\.description).joined(separator: ", ")
    }

    /// `duration` in microseconds with one decimal, `12.3µs`.
    static func microseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = seconds * 10_000_000 + attoseconds / 100_000_000_000
        return "\(tenths / 10).\(abs(tenths % 10))µs"
    }
}

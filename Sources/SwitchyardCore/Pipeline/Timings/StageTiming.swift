/// The time one stage of a call's pipeline spent on its own work, excluding the stages inside it
/// and the transport: what it did on the way in (before it handed the request on) and on the way
/// out (after the response came back). The transport appears as ``StageID/transport``, its whole
/// exchange counted as `inbound`.
public struct StageTiming: Sendable, Hashable, CustomStringConvertible {
    /// The stage.
    public var stage: StageID
    /// Its own time before handing the request on (summed when it sends more than once).
    public var inbound: Duration
    /// Its own time after the last response came back to it.
    public var outbound: Duration

    /// Creates a timing.
    ///
    /// - Parameters:
    ///   - stage: the stage.
    ///   - inbound: its time on the way in.
    ///   - outbound: its time on the way out.
    public init(stage: StageID, inbound: Duration, outbound: Duration) {
        self.stage = stage
        self.inbound = inbound
        self.outbound = outbound
    }

    /// Both directions together.
    public var total: Duration { inbound + outbound }

    /// `signing 1.2µs+0.4µs`.
    public var description: String {
        "\(stage) \(StageTimings.microseconds(inbound))+\(StageTimings.microseconds(outbound))"
    }
}

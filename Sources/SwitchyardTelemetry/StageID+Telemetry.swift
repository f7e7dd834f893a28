public import SwitchyardCore

extension StageID {
    /// ``MetricsStage``.
    public static let metrics: StageID = "Metrics"
    /// ``TracingStage``.
    public static let tracing: StageID = "Tracing"
}

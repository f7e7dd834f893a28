extension APIClient {
    /// The control of a call that records timings, a trace or the body it received. A traced call's
    /// values are redacted as the service's logging stage redacts its lines (``Redaction/default``
    /// when it has none): a trace never shows what the service's logs hide.
    @inline(never)
    static func control(recordsTimings: Bool, trace: PipelineTrace.Detail?, keepsRawBody: Bool, pipeline: Pipeline) -> CallControl {
        let redaction =
            trace == nil ? Redaction.default : pipeline.stages.lazy.compactMap { $0 as? LoggingStage }.first?.redaction ?? .default
        return CallControl(recordsTimings: recordsTimings, trace: trace, redaction: redaction, keepsReceivedBody: keepsRawBody)
    }
}

extension SwitchyardError {
    /// This error with the trace of the call it ended, when the call was traced.
    func traced(by control: CallControl) -> SwitchyardError {
        guard trace == nil, let trace = control.trace else { return self }
        var error = self
        error.trace = trace
        return error
    }
}

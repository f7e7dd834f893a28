extension SwitchyardError {
    /// Converts any error into a ``SwitchyardError``, keeping a Switchyard error's code and recognising
    /// cancellation.
    ///
    /// - Parameters:
    ///   - error: the error to convert.
    ///   - code: the code to use when `error` is not already a ``SwitchyardError``.
    ///   - stage: the stage to blame, when none is named yet.
    /// - Returns: a Switchyard error that wraps `error` unless it already was one.
    public static func wrapping(_ error: any Error, as code: Code = .stageFailure, stage: StageID? = nil) -> SwitchyardError {
        if var existing = error as? SwitchyardError {
            if existing.stage == nil { existing.stage = stage }
            return existing
        }
        if error is CancellationError {
            var cancelled = SwitchyardError(code: .cancelled, message: "The call was cancelled.", underlyingError: error)
            cancelled.stage = stage
            return cancelled
        }
        var wrapped = SwitchyardError(code: code, message: String(describing: error), underlyingError: error)
        wrapped.stage = stage
        return wrapped
    }

    /// Converts an error thrown inside a pipeline link, blaming `stage` unless an inner link of the
    /// same call was already blamed. An error that belongs to a *different* call — a stage that made
    /// a nested call (a token refresh) and let its error escape — is wrapped, so that this call's
    /// error names this call's stage and keeps the nested error as its underlying error.
    static func wrapping(_ error: any Error, as code: Code = .stageFailure, stage: StageID, in context: CallContext) -> SwitchyardError {
        if let existing = error as? SwitchyardError, let other = existing.requestID, other != context.requestID {
            var wrapped = SwitchyardError(
                code: existing.code,
                message: "a nested call failed: \(existing.message)",
                underlyingError: existing
            )
            wrapped.stage = stage
            wrapped.response = existing.response
            wrapped.userMessage = existing.userMessage
            return wrapped
        }
        return wrapping(error, as: code, stage: stage)
    }

    /// This error with `response` attached when it carries none yet (a response stage that failed on
    /// the response it was given).
    package func carrying(_ response: Response) -> SwitchyardError {
        guard self.response == nil, code != .cancelled else { return self }
        var copy = self
        copy.response = response
        return copy
    }

    /// Fills in call context the error does not carry yet.
    package func filling(from context: CallContext) -> SwitchyardError {
        var copy = self
        if copy.serviceID == nil { copy.serviceID = context.serviceID }
        if copy.endpoint == nil { copy.endpoint = context.endpointName }
        if copy.requestID == nil { copy.requestID = context.requestID }
        return copy
    }
}

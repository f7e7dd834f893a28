extension SwitchyardError {
    /// The ``Code/timeout`` error a transport throws when an attempt runs out of time: it states the
    /// attempt's limit and the time that actually passed, so that a limit cut short or overrun shows.
    ///
    /// ```swift
    /// throw SwitchyardError.timedOut(target: "GET http://127.0.0.1:8080/delay/3000", limit: .milliseconds(300),
    ///                                elapsed: .now - started, underlyingError: error)
    /// // GET http://127.0.0.1:8080/delay/3000 timed out after 0.301 s (its limit: 0.3 seconds)
    /// ```
    ///
    /// - Parameters:
    ///   - target: the request, as `METHOD scheme://authority/path` (no query).
    ///   - limit: the attempt's time limit, when it had one.
    ///   - elapsed: the time from sending to giving up.
    ///   - underlyingError: the transport's own error, if any.
    /// - Returns: the error.
    public static func timedOut(target: String, limit: Duration?, elapsed: Duration, underlyingError: (any Error)? = nil) -> SwitchyardError
    {
        let milliseconds = max(0, elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let seconds =
            "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - String(milliseconds % 1000).count))\(milliseconds % 1000) s"
        return SwitchyardError(
            code: .timeout,
            message: "\(target) timed out after \(seconds)\(limit.map { " (its limit: \($0))" } ?? "")",
            underlyingError: underlyingError
        )
    }
}

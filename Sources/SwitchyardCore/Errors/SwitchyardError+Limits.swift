extension SwitchyardError {
    /// The ``Code/limitExceeded`` error a transport throws for a response larger than its limit.
    ///
    /// - Parameters:
    ///   - limit: the limit in bytes.
    ///   - observed: the size seen: the announced `Content-Length`, or the bytes received when the
    ///     limit was crossed.
    ///   - decompressed: whether the size is that of the decompressed body.
    ///   - target: the request, as `METHOD scheme://authority/path` (no query).
    /// - Returns: the error.
    public static func responseTooLarge(limit: Int, observed: Int?, decompressed: Bool = false, target: String) -> SwitchyardError {
        let seen =
            observed.map { " (\($0) bytes\(decompressed ? " once decompressed" : ""))" } ?? (decompressed ? " once decompressed" : "")
        return SwitchyardError(
            code: .limitExceeded,
            message: "the response to \(target) is larger than the transport's limit of \(limit) bytes\(seen)"
        )
    }
}

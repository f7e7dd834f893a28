extension Request: CustomStringConvertible {
    /// The request on one line for logs and debugging, with its credentials hidden by
    /// ``Redaction/default``: the method, the URL with secret path segments and query values redacted,
    /// the header fields with secret values (`Authorization`, `Cookie`, a `X-Api-Key` …) redacted, and
    /// the body's size — never its bytes.
    ///
    /// ```swift
    /// print(result.sentRequest!)
    /// // GET https://api.example.com/me?access_token=<redacted> [Authorization: <redacted>; Accept: application/json] (no body)
    /// ```
    public var description: String {
        let redaction = Redaction.default
        let origin = head.scheme.map { "\($0)://\(head.authority ?? "")" } ?? ""
        let fields = redaction.render(headerFields).joined(separator: "; ")
        let body: String
        switch self.body {
        case nil: body = "no body"
        case .bytes(let data): body = "\(data.count)-byte body"
        case .stream(let stream): body = "\(stream.length)-byte streamed body"
        }
        return "\(method.rawValue) \(origin)\(redaction.redactTarget(path)) [\(fields)] (\(body))"
    }
}

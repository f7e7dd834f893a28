extension Request: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
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
        let fields = Redaction.default.render(headerFields).joined(separator: "; ")
        return "\(method.rawValue) \(redactedURL) [\(fields)] (\(bodySummary))"
    }

    /// The same as ``description``: `debugPrint` and `String(reflecting:)` hide what it hides.
    public var debugDescription: String { description }

    /// What `dump`, `Mirror` and the debugger show: the method, the URL, the header fields and the
    /// body's size, redacted as ``description`` is — never a credential nor the body's bytes.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "method": method.rawValue, "url": redactedURL, "headerFields": Redaction.default.render(headerFields),
                "body": bodySummary,
            ],
            displayStyle: .struct
        )
    }

    /// The origin and the target, with secret path segments and query values redacted.
    private var redactedURL: String {
        let origin = head.scheme.map { "\($0)://\(head.authority ?? "")" } ?? ""
        return origin + Redaction.default.redactTarget(path)
    }

    /// `no body`, `12-byte body` or `4096-byte streamed body`.
    private var bodySummary: String {
        switch body {
        case nil: "no body"
        case .bytes(let data): "\(data.count)-byte body"
        case .stream(let stream): "\(stream.length)-byte streamed body"
        }
    }
}

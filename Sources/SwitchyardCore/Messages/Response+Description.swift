import Foundation

extension Response: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The response on one line for logs and debugging, with its credentials hidden by
    /// ``Redaction/default``: the status, the header fields with secret values (`Set-Cookie`, a
    /// `X-Auth-Token` …) redacted, the body's size — never its bytes — and where it came from.
    ///
    /// ```swift
    /// print(response)
    /// // 200 OK [Content-Type: application/json; Set-Cookie: <redacted>] (21-byte body, network)
    /// ```
    public var description: String {
        let fields = Redaction.default.render(headerFields).joined(separator: "; ")
        return "\(status.code) \(status.reasonPhrase) [\(fields)] (\(bodySummary), \(source))"
    }

    /// The same as ``description``: `debugPrint` and `String(reflecting:)` hide what it hides.
    public var debugDescription: String { description }

    /// What `dump`, `Mirror` and the debugger show: the status, the header fields, the body's size
    /// and where it came from — redacted as ``description`` is; never a credential nor the body's
    /// bytes. The ``metadata`` stages attach is left out.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "status": "\(status.code) \(status.reasonPhrase)", "headerFields": Redaction.default.render(headerFields),
                "body": bodySummary, "source": source,
            ],
            displayStyle: .struct
        )
    }

    /// `21-byte body`, `a downloaded file of 4096 bytes` or `streamed body`.
    private var bodySummary: String {
        switch body {
        case .bytes(let data): "\(data.count)-byte body"
        case .file(let file): "a downloaded file of \(file.byteCount) bytes"
        case .stream: "streamed body"
        }
    }
}

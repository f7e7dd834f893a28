import Foundation

extension CallResult: CustomReflectable {
    /// What `print`, `dump`, `Mirror` and the debugger show: every property, with the header fields'
    /// secret values (`Set-Cookie`, a `X-Auth-Token` …) hidden by ``Redaction/default``, the
    /// ``sentRequest`` as its own redacted description shows it, the ``rawBody``'s size only, the
    /// endpoint's name and the ``finalURL`` redacted as a target is. The ``value`` shows as its own type
    /// shows itself; the ``metadata`` stages attach is left out.
    public var customMirror: Mirror {
        let redaction = Redaction.default
        return Mirror(
            self,
            children: [
                "value": value, "status": "\(status.code) \(status.reasonPhrase)", "headerFields": redaction.render(headerFields),
                "requestID": requestID, "endpointName": redaction.redactTarget(endpointName), "tags": tags,
                "sentRequest": sentRequest as Any, "rawBody": rawBody.map { "\($0.count) bytes" } as Any, "serviceID": serviceID,
                "environment": environment, "attempts": attempts, "duration": duration, "source": source, "redirectCount": redirectCount,
                "finalURL": finalURL.map { redaction.redactURLs(in: $0.absoluteString) } as Any,
            ],
            displayStyle: .struct
        )
    }
}

extension SwitchyardError: CustomReflectable {
    /// What `dump`, `Mirror` and the debugger show, redacted as ``description`` is: the code, the
    /// messages, the call's context with an endpoint named by its path redacted, the ``response``
    /// (which shows its header fields redacted and its body's size only), the detail's summary and
    /// the underlying error's text with every URL in it redacted.
    public var customMirror: Mirror {
        let redaction = Redaction.default
        return Mirror(
            self,
            children: [
                "code": code, "message": message, "userMessage": userMessage as Any, "serviceID": serviceID as Any,
                "endpoint": endpoint.map { redaction.redactTarget($0) } as Any, "stage": stage as Any, "requestID": requestID as Any,
                "response": response as Any, "detail": detail?.summary as Any,
                "underlyingError": underlyingError.map { redaction.redactURLs(in: String(describing: $0)) } as Any,
            ],
            displayStyle: .struct
        )
    }
}

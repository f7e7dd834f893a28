extension ServiceDefaults: CustomReflectable {
    /// What `print`, `dump`, `Mirror` and the debugger show: every default, with the header fields'
    /// secret values (a static `Authorization`, a `X-Api-Key` …) hidden by ``Redaction/default``.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "timeout": timeout as Any, "deadline": deadline as Any, "parameterEncoding": parameterEncoding,
                "queryArrayStyle": queryArrayStyle, "headerFields": Redaction.default.render(headerFields),
                "acceptableStatusCodes": acceptableStatusCodes, "makeDecoder": makeDecoder, "makeEncoder": makeEncoder,
                "redirects": redirects, "keepsRawBody": keepsRawBody, "trace": trace as Any,
                "connectivityProbe": connectivityProbe as Any,
            ],
            displayStyle: .struct
        )
    }
}

extension SwitchyardError {
    /// A stable error code. Compare with `==` or switch over the static members.
    ///
    /// A code belongs to the module that defines it: ``init(_:fileID:)`` records the defining module,
    /// so two modules that both define a `timeout` code get two different codes, never one by
    /// accident. The kernel's codes are below; a feature declares its own beside it (the kernel and the
    /// features are one module to their users: `Switchyard`). ``rawValue`` is stable and safe as a
    /// metric label: the bare name for `Switchyard`'s codes, `Module.name` for other modules'.
    ///
    /// ```swift
    /// extension SwitchyardError.Code {
    ///     /// The backend asked the user to sign in again.
    ///     public static let reLogin = SwitchyardError.Code("reLogin")
    /// }
    /// ```
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The module that defined the code, such as `Switchyard` or `SwitchyardCrypto`.
        public let module: String
        /// The code's name within its module, such as `timeout`.
        public let name: String

        /// Creates a code in the calling module.
        ///
        /// - Parameters:
        ///   - name: the code's name, unique within the module.
        ///   - fileID: leave the default: it names the module that defines the code.
        public init(_ name: String, fileID: StaticString = #fileID) {
            let path = "\(fileID)"
            let module = path.firstIndex(of: "/").map { String(path[..<$0]) } ?? path
            // The kernel's module and the features' module are one library to their users, whose
            // codes are the core's: `Switchyard`.
            self.module = module == "SwitchyardCore" ? "Switchyard" : module
            self.name = name
        }

        /// A code read back from its parts, such as one a store kept (the outbox's dead letters).
        package init(module: String, name: String) {
            self.module = module
            self.name = name
        }

        /// The code's stable name: `name` for the core's codes, `Module.name` for other modules'.
        public var rawValue: String { module == "Switchyard" ? name : "\(module).\(name)" }

        /// The code's stable name.
        public var description: String { rawValue }
    }
}

// The kernel's codes.
extension SwitchyardError.Code {
    /// A string is not a valid ``ServiceID``.
    public static let invalidServiceID = Self("invalidServiceID")
    /// A base URL cannot be parsed or is not an absolute `http`/`https` URL.
    public static let invalidBaseURL = Self("invalidBaseURL")
    /// The call cannot be turned into an HTTP request (missing path parameter, bad template, an
    /// option whose stage the service does not have, an unknown stage id …).
    public static let invalidRequest = Self("invalidRequest")
    /// Parameters or a body could not be encoded.
    public static let encoding = Self("encoding")
    /// A stage needs the whole body in memory, but the request streams it or the response was
    /// written to a file.
    public static let unsupportedBody = Self("unsupportedBody")
    /// The transport failed: connection refused or reset, DNS, TLS, …
    public static let transport = Self("transport")
    /// The call did not finish in time.
    public static let timeout = Self("timeout")
    /// The call was cancelled.
    public static let cancelled = Self("cancelled")
    /// The response's status is not acceptable for the call.
    public static let httpStatus = Self("httpStatus")
    /// The response body could not be decoded into the call's output.
    public static let decoding = Self("decoding")
    /// The response is malformed (for example a stage expected a shape it did not find).
    public static let invalidResponse = Self("invalidResponse")
    /// The backend answered with a business failure in its envelope (see `EnvelopeStage` and
    /// `EnvelopeFailure`). It carries only the service's own words: an answer marked
    /// `Response.isUnverified` (unsealed or unsigned where the service requires it — an auth proxy's
    /// or a gateway's envelope, or anyone's on the path) is never `.business`; the envelope stage
    /// leaves it as ``httpStatus``, its body readable in ``SwitchyardError/response``.
    public static let business = Self("business")
    /// A stage rejected the call for a reason of its own.
    public static let stageFailure = Self("stageFailure")
    /// Persisting or loading state (such as the environment selection) failed.
    public static let storage = Self("storage")
    /// No credentials could be obtained, or refreshing an expired token failed (see
    /// `AuthorizationStage`).
    public static let authentication = Self("authentication")
    /// A stage refused the call before it was sent (a request check of the app's own, such as a
    /// `ClosureStage.request(id:_:)` that throws this code).
    public static let refused = Self("refused")
    /// A cache-only call found nothing stored (see `CacheStage`).
    public static let cacheMiss = Self("cacheMiss")
    /// The response's content type is not acceptable for the call (see `ValidationStage`).
    public static let contentType = Self("contentType")
    /// A redirect was refused by the service's `RedirectPolicy`: to another origin, from `https`
    /// to `http`, to an unusable location, or one too many. The error carries the `3xx` response.
    public static let redirect = Self("redirect")
    /// A response was larger than a transport's limit, before or after decompression; the message
    /// states the limit and the size seen.
    public static let limitExceeded = Self("limitExceeded")
    /// The server's certificate carried none of the public keys pinned for the service (see
    /// `PublicKeyPins` in `SwitchyardAsyncHTTPClient`); nothing of the request was sent.
    public static let pinning = Self("pinning")
    /// A downloaded file's checksum does not match the one expected; the file was discarded.
    public static let integrity = Self("integrity")
}

public import Foundation
public import HTTPTypes

/// The one error type every Switchyard call throws.
///
/// An error carries a stable ``code`` you can switch on, a ``message`` written for a person, and the
/// context in which it happened: the service, the endpoint, the stage that failed (or `"transport"`),
/// the request id, the HTTP status if a response arrived, and the underlying error.
///
/// ```swift
/// do {
///     let user = try await client.send(GetUser(id: 7)).value
/// } catch let error as SwitchyardError where error.code == .timeout {
///     print("\(error.serviceID?.rawValue ?? "?") timed out at \(error.stage ?? "?")")
/// }
/// ```
///
/// Codes are values of ``Code``, a struct rather than an enum, so that new codes can be added
/// without breaking your `switch` statements.
public struct SwitchyardError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, as a stable, growable set of values.
    public var code: Code
    /// A sentence that says what went wrong and, where possible, what to do about it.
    public var message: String
    /// The service the call was addressed to.
    public var serviceID: ServiceID?
    /// The endpoint's name (the discrete endpoint's type name, or the intensive call's path).
    public var endpoint: String?
    /// The stage that threw, `"transport"` for the transport, or `nil` outside the pipeline.
    public var stage: String?
    /// The identifier of the call that failed.
    public var requestID: RequestID?
    /// The response's status, when a response arrived.
    public var status: HTTPResponse.Status?
    /// The response body, when a response arrived (for error payloads and diagnostics).
    public var responseBody: Data?
    /// The response's header fields, when a response arrived (a `Retry-After`, say).
    public var responseHeaderFields: HTTPFields?
    /// The backend's business code, for ``Code/business`` errors (as text: `4004`, `"SUCCESS"`).
    public var businessCode: String?
    /// The error this one wraps, if any.
    public var underlyingError: (any Error)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: the stable code.
    ///   - message: a sentence a person understands.
    ///   - underlyingError: the error being wrapped, if any.
    public init(code: Code, message: String, underlyingError: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlyingError = underlyingError
    }

    /// `[code] message (service …, endpoint …, stage …, request …, status …): underlying`.
    public var description: String {
        var context: [String] = []
        if let serviceID { context.append("service '\(serviceID)'") }
        if let endpoint { context.append("endpoint \(endpoint)") }
        if let stage { context.append("stage '\(stage)'") }
        if let requestID { context.append("request \(requestID)") }
        if let status { context.append("status \(status.code)") }
        var text = "[\(code)] \(message)"
        if !context.isEmpty { text += " (" + context.joined(separator: ", ") + ")" }
        if let underlyingError { text += " — underlying error: \(String(describing: underlyingError))" }
        return text
    }

    /// The same as ``description`` plus a preview of the response body.
    public var debugDescription: String {
        guard let responseBody, !responseBody.isEmpty else { return description }
        let preview = String(decoding: responseBody.prefix(512), as: UTF8.self)
        return description + " — response body: \(preview)\(responseBody.count > 512 ? "…" : "")"
    }
}

extension SwitchyardError {
    /// A stable error code. Compare with `==` or switch over the static members.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's stable name, e.g. `"timeout"`.
        public let rawValue: String
        /// Creates a code; other modules (crypto, caching, …) define their own codes with this.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The code's stable name.
        public var description: String { rawValue }

        /// No service is registered under the call's service identifier.
        public static let unknownService = Code("unknownService")
        /// A string is not a valid ``ServiceID``.
        public static let invalidServiceID = Code("invalidServiceID")
        /// A base URL cannot be parsed or is not an absolute `http`/`https` URL.
        public static let invalidBaseURL = Code("invalidBaseURL")
        /// The service has no base URL for the current environment.
        public static let missingBaseURL = Code("missingBaseURL")
        /// The environment is locked (a release build) and cannot be switched.
        public static let environmentLocked = Code("environmentLocked")
        /// The call cannot be turned into an HTTP request (missing path parameter, bad template, …).
        public static let invalidRequest = Code("invalidRequest")
        /// Parameters or a body could not be encoded.
        public static let encoding = Code("encoding")
        /// The transport failed: connection refused or reset, DNS, TLS, …
        public static let transport = Code("transport")
        /// The call did not finish in time.
        public static let timeout = Code("timeout")
        /// The call was cancelled.
        public static let cancelled = Code("cancelled")
        /// The response's status is not acceptable for the call.
        public static let httpStatus = Code("httpStatus")
        /// The response body could not be decoded into the call's output.
        public static let decoding = Code("decoding")
        /// The response is malformed (for example a stage expected a shape it did not find).
        public static let invalidResponse = Code("invalidResponse")
        /// The backend answered with a business failure in its envelope (see ``EnvelopeStage``).
        public static let business = Code("business")
        /// A stage rejected the call for a reason of its own.
        public static let stageFailure = Code("stageFailure")
        /// Persisting or loading state (such as the environment selection) failed.
        public static let storage = Code("storage")
        /// No credentials could be obtained, or refreshing an expired token failed (see
        /// ``AuthorizationStage``).
        public static let authentication = Code("authentication")
        /// An interceptor refused the call before it was sent (see ``InterceptorStage``).
        public static let refused = Code("refused")
        /// A cache-only call found nothing stored (see ``CacheStage``).
        public static let cacheMiss = Code("cacheMiss")
        /// The response's content type is not acceptable for the call (see ``ValidationStage``).
        public static let contentType = Code("contentType")
        /// A downloaded file's checksum does not match the one expected; the file was discarded.
        public static let integrity = Code("integrity")
    }
}

import Foundation
public import HTTPTypes

/// The one error type every Switchyard call throws.
///
/// An error carries a stable ``code`` you can switch on, a ``message`` written for a person, and the
/// context in which it happened: the service, the endpoint, the stage that failed (or
/// ``StageID/transport``), the request id, the ``response`` that arrived (status, header fields and
/// body, when one did), stage-defined ``detail`` (the envelope's business code, say) and the
/// underlying error.
///
/// ```swift
/// do {
///     let user = try await client.send(GetUser(id: 7)).value
/// } catch where error.code == .httpStatus {
///     print(error.status?.code ?? 0, error.response?.headerFields[.retryAfter] ?? "-")
/// }
/// ```
///
/// ``description`` and ``debugDescription`` never print raw body bytes: the debug description adds
/// the body's length and a preview passed through ``Redaction/default``.
///
/// Codes are values of ``Code``, a struct rather than an enum, so that new codes can be added
/// without breaking your `switch` statements.
public struct SwitchyardError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, as a stable, growable set of values.
    public var code: Code
    /// A sentence that says what went wrong and, where possible, what to do about it — for the
    /// developer: it may name the request (``userMessage`` is the text for the app's user).
    public var message: String
    /// The text to show the app's user, when one was chosen for this error: what an
    /// `EnvelopeStage`'s `messages` mapping returned (for a business code, or for a body that is
    /// not an envelope at all), the server's business message, or what a stage of your own set.
    /// `nil` otherwise; ``errorDescription`` then says something general about the ``code``.
    public var userMessage: String?
    /// The service the call was addressed to.
    public var serviceID: ServiceID?
    /// The endpoint's name (the discrete endpoint's type name, or the intensive call's path).
    public var endpoint: String?
    /// The stage that threw, ``StageID/transport`` for the transport, or `nil` outside the pipeline.
    public var stage: StageID?
    /// The identifier of the call that failed.
    public var requestID: RequestID?
    /// The response that arrived, as the failing stage saw it (status, header fields, body), or `nil`
    /// when none did.
    public var response: Response?
    /// Detail a stage attaches to its errors, typed by the stage (`EnvelopeFailure` for the
    /// envelope stage); read it with ``detail(as:)``.
    public var detail: (any SwitchyardErrorDetail)?
    /// The error this one wraps, if any.
    public var underlyingError: (any Error)?
    /// What each stage did to the call before it failed, when the call was traced
    /// (`CallOptions.trace`, `ServiceDefaults.trace`); `nil` otherwise.
    public var trace: PipelineTrace?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: the stable code.
    ///   - message: a sentence a person understands.
    ///   - response: the response that arrived, if any.
    ///   - detail: stage-defined detail, if any.
    ///   - underlyingError: the error being wrapped, if any.
    public init(
        code: Code,
        message: String,
        response: Response? = nil,
        detail: (any SwitchyardErrorDetail)? = nil,
        underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.response = response
        self.detail = detail
        self.underlyingError = underlyingError
    }

    /// The status of the response that arrived, if one did.
    public var status: HTTPResponse.Status? { response?.status }

    /// The stage-defined detail when it is of type `type`.
    ///
    /// ```swift
    /// if let failure = error.detail(as: EnvelopeFailure.self) { print(failure.businessCode) }
    /// ```
    public func detail<Detail: SwitchyardErrorDetail>(as type: Detail.Type) -> Detail? {
        detail as? Detail
    }

    /// `[code] message (service …, endpoint …, stage …, request …, status …): underlying`; an endpoint
    /// named by its path passes through ``Redaction/redactTarget(_:)`` (``Redaction/default``), so a
    /// secret-shaped path segment never reaches the text, and every URL in the underlying error's text
    /// passes through ``Redaction/redactURLs(in:)`` (a failing URL with a token in its query, say).
    public var description: String {
        var context: [String] = []
        if let serviceID { context.append("service '\(serviceID)'") }
        if let endpoint { context.append("endpoint \(Redaction.default.redactTarget(endpoint))") }
        if let stage { context.append("stage '\(stage)'") }
        if let requestID { context.append("request \(requestID)") }
        if let status { context.append("status \(status.code)") }
        var text = "[\(code)] \(message)"
        if !context.isEmpty { text += " (" + context.joined(separator: ", ") + ")" }
        if let detail { text += " — \(detail.summary)" }
        if let underlyingError { text += " — underlying error: \(Redaction.default.redactURLs(in: String(describing: underlyingError)))" }
        return text
    }

    /// The same as ``description`` plus the response body's length and a short preview with secrets
    /// (JSON members, form fields) redacted by what the bytes are, whatever content type they declare;
    /// binary bodies, and text of a type that is neither JSON, form nor `text/`, are not previewed.
    public var debugDescription: String {
        guard let response else { return description }
        switch response.body {
        case .file(let file):
            return description + " — response body: a downloaded file of \(file.byteCount) bytes"
        case .stream:
            return description + " — response body: streamed, not read here"
        case .bytes(let bytes):
            guard !bytes.isEmpty else { return description + " — response body: empty" }
            return description + " — response body: \(bytes.count) bytes" + Self.preview(of: bytes, response: response)
        }
    }

    /// How many characters of a redacted body ``debugDescription`` shows.
    static let previewLength = 160

    /// `, preview: …` for the text ``Redaction/redactBody(_:contentType:)`` allows (secret JSON members
    /// and form pairs hidden whatever the declared type); the content type alone for anything else.
    private static func preview(of bytes: Data, response: Response) -> String {
        let type = response.headerFields[.contentType]?.lowercased() ?? ""
        guard let redacted = Redaction.default.redactBody(bytes, contentType: type) else {
            return " (\(type.isEmpty ? "no content type" : type))"
        }
        let clipped = redacted.prefix(previewLength)
        return ", preview: \(clipped)\(redacted.count > previewLength ? "…" : "")"
    }
}

/// Detail a stage attaches to the errors it throws, typed by the stage that defines it.
///
/// The envelope stage's `EnvelopeFailure` is one; a stage of your own can define another and read
/// it back with ``SwitchyardError/detail(as:)``. Keep secrets out of it: ``summary`` appears in the
/// error's description.
public protocol SwitchyardErrorDetail: Sendable {
    /// A short, secret-free text for the error's description.
    var summary: String { get }
}

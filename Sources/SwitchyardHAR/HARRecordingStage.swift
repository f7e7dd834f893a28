import Foundation
public import Switchyard

/// Records every call that passes it into a shared ``HARRecorder``, redacted, so a session's traffic
/// can be exported as an HTTP Archive (HAR 1.2) and opened in a browser's developer tools or any HAR
/// viewer.
///
/// Each call becomes one entry: the request as it passed the stage, the response as it came back,
/// and the time between. A failed call is recorded too, with whatever response its error carries
/// (or status 0) and the error as `_error`; the error is then thrown on unchanged.
///
/// ## Redaction
///
/// Everything goes through the stage's ``redaction`` — the same `Redaction` the `LoggingStage`
/// uses, so the same secrets are hidden: `Authorization`, `Cookie` and `Set-Cookie` values (in the
/// headers and the cookie lists), header fields, query parameters, form fields and JSON members named
/// like tokens, keys, passwords, signatures or sessions, secret-shaped path segments in the URL, and
/// whatever names a service adds, and path segments after a segment named like a secret
/// (`/password-reset/<redacted>`). Bodies always pass through redaction:
/// - text as `Redaction.redactBody(_:contentType:)` shows it, whatever its bytes: a body of a text
///   or JSON type that is not clean UTF-8 (a Latin-1 byte, a control character) is decoded by its
///   declared charset, or as UTF-8 with the bad bytes replaced, and redacted — never kept raw;
/// - a multipart form field by field: a field named like a secret hidden, the others redacted as
///   text, a file described by its field name, file name, type and size;
/// - a binary body (declared `image/…`, `audio/…`, `application/octet-stream`, `application/pdf` …)
///   by its size and type only, unless ``Bodies/allIncludingBinary(_:)`` names its type;
/// - anything else (bytes that are not text under a type that is neither text nor binary, or no
///   type at all) not at all, with a comment saying why.
///
/// ## Placement
///
/// Where the stage sits decides what it records:
/// - **innermost** (last in the list, after encryption and signing): the request as it goes on the
///   wire — ciphertext bodies (by size and type; in base64 with
///   `.allIncludingBinary(["application/octet-stream"])`), signature headers (redacted) — and every attempt of a retried call
///   as an entry of its own when a `RetryStage` is outside it. This is the recommended place.
/// - **outermost** (first in the list): the call as the app sees it — plaintext bodies of an
///   encrypted service, redacted, one entry per call. Put it there only when you mean to record
///   plaintext.
///
/// ```swift
/// let recorder = HARRecorder()
/// let stages: [any Stage] = [
///     LoggingStage(),
///     HARRecordingStage(recorder: recorder).optIn(),   // runs only for calls that enable it
/// ]
/// var options = CallOptions()
/// options.enable(.harRecording)
/// ```
///
/// Register it as opt-in (`Stage.optIn()`) to record only the calls that enable it, or as usual to
/// record every call of the service. One recorder can serve the stages of any number of services.
public struct HARRecordingStage: Stage {
    /// What the stage records of bodies. Whatever it is, no body is recorded as it came: text only
    /// through ``HARRecordingStage/redaction``, binary content only for the types named.
    public enum Bodies: Sendable, Hashable {
        /// Text redacted, whatever its bytes; a multipart form with its fields redacted and its files
        /// described; a binary body (its declared type `image/…`, `application/octet-stream` …) by its
        /// size and type alone; anything else left out (the default).
        case all
        /// What ``HARRecordingStage/Bodies/all`` records, and the content, in base64, of binary
        /// bodies whose declared type is one of these: exact (`image/png`) or a family (`image/*`;
        /// `*/*` for every binary type), ignoring case. A type that is not binary
        /// (`application/json`, `text/plain`) is never recorded raw, named here or not.
        case allIncludingBinary(Set<String>)
        /// No body, only its size and type.
        case none
    }

    /// Where the entries go.
    public let recorder: HARRecorder
    /// What to hide.
    public let redaction: Redaction
    /// What of bodies is recorded.
    public let bodies: Bodies

    /// `StageID.harRecording`.
    public var id: StageID { .harRecording }

    /// Creates the stage.
    ///
    /// - Parameters:
    ///   - recorder: the recorder the entries go to, shared by any number of stages.
    ///   - redaction: what to hide; `Redaction.default` unless the service's logging hides more.
    ///   - bodies: what of bodies is recorded; ``Bodies/all`` by default.
    public init(recorder: HARRecorder, redaction: Redaction = .default, bodies: Bodies = .all) {
        self.recorder = recorder
        self.redaction = redaction
        self.bodies = bodies
    }

    /// Passes the request on and records it with the response or the failure.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        guard recorder.accepts() else { return try await next(request, context) }
        let capture = HARCapture(redaction: redaction, bodies: bodies, maxBodyBytes: recorder.maxBodyBytes)
        let recordedRequest = capture.request(request, template: context.endpointName)
        let started = Date()
        let start = ContinuousClock.now
        // A traced call's steps from here on are those of the stages inside this one.
        let tracer = context.control.timings?.tracer
        let firstStep = tracer?.count ?? 0
        do {
            let response = try await next(request, context)
            let stages = tracer?.trace(from: firstStep).steps
            record(recordedRequest, capture.response(response), started: started, elapsed: .now - start, context: context, stages: stages)
            return response
        } catch {
            let failure = SwitchyardError.wrapping(error)
            let stages = tracer?.trace(from: firstStep).steps
            record(recordedRequest, capture.failure(failure), started: started, elapsed: .now - start, context: context, stages: stages)
            throw error
        }
    }

    private func record(
        _ request: HAR.Request,
        _ response: HAR.Response,
        started: Date,
        elapsed: Duration,
        context: CallContext,
        stages: [StageTrace]?
    ) {
        let components = elapsed.components
        let microseconds = components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
        let milliseconds = Double(microseconds) / 1000
        let entry = HAR.Entry(
            startedDateTime: HARRecorder.timestamp(started),
            time: milliseconds,
            request: request,
            response: response,
            timings: HAR.Timings(waiting: milliseconds),
            service: context.serviceID.description,
            endpoint: context.endpointName.isEmpty ? nil : redaction.redactTarget(context.endpointName),
            requestID: "\(context.requestID)",
            attempt: context.attempt,
            tags: context.tags.map(\.description).sorted(),
            stages: stages
        )
        recorder.record(entry, started: started)
    }
}

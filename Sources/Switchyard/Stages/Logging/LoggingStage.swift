public import Foundation
import HTTPTypes
public import Logging
import Synchronization

/// Logs every call on swift-log, with secrets redacted.
///
/// - `info`: one line when the request goes out (`→ POST /path?query`) and one when the response
///   comes back (`← 200 OK POST /path 12.4 ms 310 B`); a failure is logged at `warning` with its code.
/// - `debug`: the header fields and a body preview of at most ``bodyPreviewLimit`` bytes, both ways.
/// - `trace`: the request as a `curl` command line.
///
/// Everything passes through the ``Redaction`` list first (by default `Authorization`, cookies, any
/// header, parameter or JSON member named like token, password, secret, key, sign, session or sid,
/// path segments after a segment named like one, `/password-reset/<redacted>`, and path segments
/// shaped like secrets), and bodies are redacted by what their bytes are, whatever
/// content type they declare (``Redaction/redactBody(_:contentType:)``). Every target printed — the
/// request line, the response line, a failure, the `curl` rendering and the endpoint metadata — goes
/// through ``Redaction/redactTarget(_:)``; the request's path with the call's path template too, when
/// its endpoint name carries one (a call made at the call site: `GET /users/{id}/keys/{apiKey}`), so
/// a placeholder named like a secret hides its value.
///
/// The logger is the stage's own if you give one, otherwise the call's (``CallContext/logger``).
/// ``level`` makes one service more verbose; ``CallOptions/logLevel(_:)`` does the same for one call.
/// Each line carries the request id, service, its environment, endpoint and attempt as metadata. Messages are built
/// only when their level is enabled, so a quiet logger costs almost nothing.
///
/// Register it inside the stages that add parameters, headers and the token (so it shows what is
/// sent) and outside encryption and signing (so it shows plaintext, redacted).
public struct LoggingStage: Stage {
    /// The context key under which ``CallOptions/logLevel(_:)`` stores one call's level.
    public enum CallLevel: CallOptionKey {
        /// The level for the call.
        public typealias Value = Logger.Level
        /// The option's name in errors.
        public static let name = "logLevel(_:)"
        /// ``StageID/logging``.
        public static let stage = StageID.logging
    }

    /// The logger to use instead of the call's, if any.
    public let logger: Logger?
    /// A level for every call of this service, if it should differ from the logger's.
    public let level: Logger.Level?
    /// What to hide.
    public let redaction: Redaction
    /// The longest body preview logged at debug, in bytes.
    public let bodyPreviewLimit: Int
    /// The endpoint names and targets ``redaction`` leaves unchanged, shared by the stage's copies.
    private let unchangedTexts = RedactedNameCache()

    /// ``StageID/logging``.
    public var id: StageID { .logging }

    /// Inside the stages that add parameters, headers and the token, so it logs what is sent (advice).
    public var orderRules: [StageOrderRule] {
        [
            .inside(
                .commonParameters,
                .headers,
                .authorization,
                strength: .advice,
                because: "the log shows the request as sent, with what these stages add (redacted)"
            )
        ]
    }

    /// Creates the stage.
    public init(logger: Logger? = nil, level: Logger.Level? = nil, redaction: Redaction = .default, bodyPreviewLimit: Int = 1024) {
        self.logger = logger
        self.level = level
        self.redaction = redaction
        self.bodyPreviewLimit = max(0, bodyPreviewLimit)
    }

    /// Logs the request, sends it, and logs the response or the failure.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        var logger = self.logger ?? context.logger
        if let level = context[CallLevel.self] ?? level { logger.logLevel = level }
        guard logger.logLevel <= .warning else { return try await next(request, context) }
        // At warning only a failure is logged (a call's or its stream's): nothing is built for a call
        // that succeeds.
        guard logger.logLevel <= .info else { return try await logFailures(request, context: context, logger: logger, next: next) }
        let (metadata, target) = describe(request, context: context)
        let method = request.method.rawValue
        let path = target.path
        logger.info(Logger.Message(stringLiteral: LogLine.request(method: method, target: target.whole)), metadata: metadata)
        if logger.logLevel <= .debug {
            logger.debug("→ headers: \(redaction.render(request.headerFields).joined(separator: "; "))", metadata: metadata)
            if let body = request.body?.bytes, !body.isEmpty {
                logger.debug("→ body: \(preview(body, contentType: request.headerFields[.contentType]))", metadata: metadata)
            } else if let stream = request.body?.stream {
                logger.debug("→ body: <\(stream.length) bytes streamed from \(stream.segments.count) segments>", metadata: metadata)
            }
            if logger.logLevel <= .trace { logger.trace("\(curl(request, target: target.whole))", metadata: metadata) }
        }
        let start = CallClock.now
        do {
            var response = try await next(request, context)
            let elapsed = CallClock.now - start
            logger.info(
                Logger.Message(stringLiteral: LogLine.response(response, method: method, path: path, elapsed: elapsed)),
                metadata: metadata
            )
            watchStream(of: &response, logger: logger, metadata: metadata, start: start, path: "\(method) \(path)")
            // A call that records stage timings gets them as one line: the stages inside this one and
            // the transport, as they stand when the response reaches it.
            if let timings = context.control.timings, timings.isRequested { logger.info("← \(timings.timings.line)", metadata: metadata) }
            if logger.logLevel <= .debug {
                logger.debug("← headers: \(redaction.render(response.headerFields).joined(separator: "; "))", metadata: metadata)
                if let body = response.body.bytes, !body.isEmpty {
                    logger.debug("← body: \(preview(body, contentType: response.headerFields[.contentType]))", metadata: metadata)
                }
            }
            return response
        } catch {
            logFailure(error, logger: logger, metadata: metadata, method: method, path: path, start: start)
            throw error
        }
    }

    /// The call's metadata, which goes with each line rather than onto the logger (whose handler's
    /// own metadata would be copied to be changed), and its target and endpoint name, redacted.
    private func describe(
        _ request: Request,
        context: CallContext
    ) -> (metadata: Logger.Metadata, target: (path: String, whole: String, endpointName: String)) {
        // Room for every entry at once: growing a dictionary rehashes it.
        var metadata = Logger.Metadata(minimumCapacity: 5)
        metadata["request-id"] = "\(context.requestID)"
        metadata["service"] = "\(context.serviceID)"
        metadata["environment"] = "\(context.environment)"
        let target = unchangedTexts.redactedCall(target: request.path, endpointName: context.endpointName, by: redaction)
        if !context.endpointName.isEmpty { metadata["endpoint"] = "\(target.endpointName)" }
        if context.attempt > 1 { metadata["attempt"] = "\(context.attempt)" }
        return (metadata, target)
    }

    /// Sends the request for a logger at warning: the call is described only when it fails or
    /// answers with a stream, whose failure is logged when it ends.
    private func logFailures(_ request: Request, context: CallContext, logger: Logger, next: NextStage) async throws -> Response {
        let start = CallClock.now
        do {
            var response = try await next(request, context)
            if response.body.stream != nil {
                let (metadata, target) = describe(request, context: context)
                watchStream(
                    of: &response,
                    logger: logger,
                    metadata: metadata,
                    start: start,
                    path: "\(request.method.rawValue) \(target.path)"
                )
            }
            return response
        } catch {
            let (metadata, target) = describe(request, context: context)
            logFailure(error, logger: logger, metadata: metadata, method: request.method.rawValue, path: target.path, start: start)
            throw error
        }
    }

    /// Logs a failed call at warning: `✗ METHOD path failed after 12.4 ms: code status — message`.
    private func logFailure(_ error: any Error, logger: Logger, metadata: Logger.Metadata, method: String, path: String, start: Duration) {
        let elapsed = CallClock.now - start
        let failure = SwitchyardError.wrapping(error)
        let status = failure.status.map { " \($0.code)" } ?? ""
        logger.warning(
            "✗ \(method) \(path) failed after \(LogLine.milliseconds(elapsed)): \(failure.code)\(status) — \(redaction.redactMessage(of: failure))",
            metadata: metadata
        )
    }

    /// A redacted, truncated rendering of a body, as logged at debug: the text
    /// ``Redaction/redactBody(_:contentType:)`` allows (JSON members and form pairs redacted whatever
    /// the declared type), cut after redaction; anything else summarised by size and type.
    public func preview(_ body: Data, contentType: String?) -> String {
        previewText(body, contentType: contentType) ?? "<\(body.count) bytes of \(Self.typeName(contentType))>"
    }

    /// Replaces a streamed answer's body with ``watch(_:logger:metadata:start:path:contentType:)`` of
    /// it; any other answer is left as it is.
    private func watchStream(of response: inout Response, logger: Logger, metadata: Logger.Metadata, start: Duration, path: String) {
        guard let stream = response.body.stream else { return }
        response.body = .stream(
            watch(stream, logger: logger, metadata: metadata, start: start, path: path, contentType: response.headerFields[.contentType])
        )
    }

    /// `stream`, counting its bytes and chunks, previewing its first chunk at debug (redacted as any
    /// body is), and logging its end: at info after the last chunk, at warning when it failed.
    private func watch(
        _ stream: ResponseStream,
        logger: Logger,
        metadata: Logger.Metadata,
        start: Duration,
        path: String,
        contentType: String?
    ) -> ResponseStream {
        let counts = Mutex((bytes: 0, chunks: 0))
        let previewLimit = bodyPreviewLimit
        return stream.map { chunk in
            let first = counts.withLock { counts in
                counts.bytes += chunk.count
                counts.chunks += 1
                return counts.chunks == 1
            }
            if first, logger.logLevel <= .debug {
                logger.debug("← stream starts: \(preview(chunk.prefix(previewLimit), contentType: contentType))", metadata: metadata)
            }
            return chunk
        }.onEnd { failure in
            let (bytes, chunks) = counts.withLock { ($0.bytes, $0.chunks) }
            let elapsed = LogLine.milliseconds(CallClock.now - start)
            if let failure {
                logger.warning(
                    "✗ stream of \(path) ended after \(elapsed), \(bytes) B in \(chunks) chunks: \(failure.code) — \(redaction.redactMessage(of: failure))",
                    metadata: metadata
                )
            } else {
                logger.info("← stream of \(path) ended after \(elapsed): \(bytes) B in \(chunks) chunks", metadata: metadata)
            }
        }
    }

    /// The redacted, truncated text of a body, or `nil` when it is not shown.
    private func previewText(_ body: Data, contentType: String?) -> String? {
        guard let text = redaction.redactBody(body, contentType: contentType) else { return nil }
        guard text.utf8.count > bodyPreviewLimit else { return text }
        let cut = String(decoding: text.utf8.prefix(bodyPreviewLimit), as: UTF8.self)
        return cut + "… (\(body.count) bytes)"
    }

    private static func typeName(_ contentType: String?) -> String {
        guard let type = contentType?.lowercased(), !type.isEmpty else { return "unknown type" }
        return type
    }

    /// The request as a `curl` command, redacted, as logged at trace.
    public func curl(_ request: Request) -> String {
        curl(request, target: redaction.redactedTarget(request.path, template: "").whole)
    }

    /// ``curl(_:)`` with the request's target already redacted (the logged line's, so it is redacted once).
    private func curl(_ request: Request, target: String) -> String {
        var parts = ["curl", "-X", request.method.rawValue]
        let scheme = request.head.scheme ?? "https"
        let authority = request.head.authority ?? "localhost"
        parts.append(Self.quoted("\(scheme)://\(authority)\(target)"))
        for line in redaction.render(request.headerFields) { parts.append("-H " + Self.quoted(line)) }
        if let body = request.body?.bytes, !body.isEmpty {
            let type = request.headerFields[.contentType]
            if let text = previewText(body, contentType: type) {
                parts.append("--data-binary " + Self.quoted(text))
            } else {
                parts.append("--data-binary @- # \(body.count) bytes of \(Self.typeName(type))")
            }
        } else if let stream = request.body?.stream {
            parts.append("--data-binary @- # \(stream.length) bytes streamed")
        }
        return parts.joined(separator: " ")
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension CallOptions {
    /// Logs this call at `level` (for example `.trace` to see its cURL rendering), whatever the
    /// logger's level (see ``LoggingStage``).
    public mutating func logLevel(_ level: Logger.Level) {
        self[option: LoggingStage.CallLevel.self] = level
    }
}

extension LoggingStage {
    /// The option under which ``CallOptions/logger`` gives a call its logger; the later wins. The
    /// client honours it, with or without a logging stage.
    enum CallLogger: ClientOptionKey {
        typealias Value = Logger
        static let name = "logger"
    }
}

extension CallOptions {
    /// The logger for this call; `nil` keeps the client's.
    public var logger: Logger? {
        get { self[option: LoggingStage.CallLogger.self] }
        set { self[option: LoggingStage.CallLogger.self] = newValue }
    }
}

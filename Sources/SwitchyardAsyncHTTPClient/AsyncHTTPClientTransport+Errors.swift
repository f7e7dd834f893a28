import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import SwitchyardCore

extension AsyncHTTPClientTransport {
    /// The ``Switchyard/SwitchyardError`` for an error AsyncHTTPClient, NIO or the body reader threw
    /// while `request` was in flight for `elapsed`.
    static func translate(_ error: any Error, request: Request, timeout: Duration?, elapsed: Duration) -> SwitchyardError {
        translate(error, target: target(of: request), authority: request.head.authority, timeout: timeout, elapsed: elapsed)
    }

    /// How a streamed answer's body reports a failure once its head has arrived: the error for the call
    /// to `request`, mid-stream, timed from `started` (``CallClock``). It keeps the request's target and
    /// authority, not the request, so a stream's reader keeps no request body alive.
    static func midStreamTranslator(for request: Request, started: Duration) -> @Sendable (any Error) -> SwitchyardError {
        let (target, authority) = (target(of: request), request.head.authority)
        return { error in
            translate(error, target: target, authority: authority, timeout: nil, elapsed: CallClock.now - started, midStream: true)
        }
    }

    /// The ``Switchyard/SwitchyardError`` for an error while the call to `target` was in flight;
    /// `midStream` when its head had arrived and its body was being streamed. It takes the request's
    /// target and authority, not the request, so a stream's reader keeps no request body alive.
    static func translate(
        _ error: any Error,
        target: String,
        authority: String?,
        timeout: Duration?,
        elapsed: Duration,
        midStream: Bool = false
    ) -> SwitchyardError {
        if let error = error as? SwitchyardError { return error }
        if error is CancellationError {
            return SwitchyardError(
                code: .cancelled,
                message: "the call was cancelled while \(target) was in flight",
                underlyingError: error
            )
        }
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout:
                return SwitchyardError.timedOut(target: target, limit: timeout, elapsed: elapsed, underlyingError: error)
            case .cancelled, .requestStreamCancelled:
                return SwitchyardError(
                    code: .cancelled,
                    message: "the call was cancelled while \(target) was in flight",
                    underlyingError: error
                )
            case .remoteConnectionClosed:
                return SwitchyardError(
                    code: .transport,
                    message: midStream
                        ? "the server closed the connection in the middle of the answer to \(target)"
                        : "the server closed the connection before answering \(target)",
                    underlyingError: error
                )
            default:
                break
            }
        }
        if let tooMany = error as? NIOTooManyBytesError {
            return SwitchyardError.responseTooLarge(limit: tooMany.maxBytes ?? 0, observed: nil, target: target)
        }
        if case .limit = error as? NIOHTTPDecompression.DecompressionError {
            var limited = SwitchyardError.responseTooLarge(limit: decompressionLimit, observed: nil, decompressed: true, target: target)
            limited.underlyingError = error
            return limited
        }
        if case .inflationError = error as? NIOHTTPDecompression.DecompressionError {
            return SwitchyardError(
                code: .invalidResponse,
                message: "the body of the response to \(target) could not be decoded: its bytes are not what its content coding says",
                underlyingError: error
            )
        }
        let text = String(describing: error)
        if text.localizedCaseInsensitiveContains("connection refused") || text.contains("ECONNREFUSED") {
            return SwitchyardError(
                code: .transport,
                message: "could not connect to \(authority ?? "the server"): connection refused",
                underlyingError: error
            )
        }
        if midStream {
            return SwitchyardError(
                code: .transport,
                message: "the answer to \(target) broke off while it was streamed: \(text)",
                underlyingError: error
            )
        }
        return SwitchyardError(code: .transport, message: "\(target) failed: \(text)", underlyingError: error)
    }

    /// The content codings the client's decoder removes (AsyncHTTPClient's: exactly these two).
    static let decodedCodings: Set<String> = ["gzip", "deflate"]

    /// Refuses a response whose body is in a content coding a decoding client cannot decode (such as
    /// `br`): handing it over would give the stages compressed bytes to parse. A client that decodes
    /// nothing (built without decompression) hands every body over as sent.
    static func checkCoding(_ head: HTTPResponse, request: Request, decodes: Bool) throws(SwitchyardError) {
        guard decodes, ContentCoding.hasContent(head, method: request.method), let coding = ContentCoding.coding(of: head.headerFields),
            !decodedCodings.contains(coding)
        else { return }
        throw SwitchyardError(
            code: .invalidResponse,
            message: "the response to \(target(of: request)) is in the \(coding) content coding, which the AsyncHTTPClient transport "
                + "cannot decode (it decodes gzip and deflate); the body was refused rather than handed over encoded",
            response: Response(head: head)
        )
    }
}

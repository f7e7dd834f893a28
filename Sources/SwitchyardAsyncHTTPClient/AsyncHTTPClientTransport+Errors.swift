import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import Switchyard

extension AsyncHTTPClientTransport {
    /// The ``Switchyard/SwitchyardError`` for an error AsyncHTTPClient, NIO or the body reader threw
    /// while `request` was in flight for `elapsed`.
    static func translate(_ error: any Error, request: Request, timeout: Duration?, elapsed: Duration) -> SwitchyardError {
        if let error = error as? SwitchyardError { return error }
        let target = target(of: request)
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
                    message: "the server closed the connection before answering \(target)",
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
        let text = String(describing: error)
        if text.localizedCaseInsensitiveContains("connection refused") || text.contains("ECONNREFUSED") {
            return SwitchyardError(
                code: .transport,
                message: "could not connect to \(request.head.authority ?? "the server"): connection refused",
                underlyingError: error
            )
        }
        return SwitchyardError(code: .transport, message: "\(target) failed: \(text)", underlyingError: error)
    }
}

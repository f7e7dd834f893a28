import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of ``URLSessionTransport/sharedSession``: it leaves redirects and authentication
/// challenges to the pipeline.
///
/// - Every redirect is refused, so the `3xx` answer completes the task and the pipeline applies the
///   service's redirect policy.
/// - Every authentication challenge (a `401` with `WWW-Authenticate`) is declined without a
///   credential, so the `401` comes back as a response — credentials are the stages' job. On Apple
///   platforms default handling does that (the session keeps no credential storage). On Linux,
///   FoundationNetworking waits for ever on a `Basic` challenge it has no credential for, so the
///   challenge is cancelled instead and ``URLSessionTransport`` returns the `401` it had received
///   (its body is not available there).
///
/// It also drives the transport's tasks on the shared session: each one's upload progress, response
/// head, body chunks and end go to its ``StreamingTransfer``.
final class RedirectRefusingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// The transfers in flight, by task identifier.
    private let transfers = Mutex<[Int: StreamingTransfer]>([:])

    /// Routes `task`'s callbacks to `transfer` until it completes.
    func register(_ transfer: StreamingTransfer, for task: URLSessionTask) {
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    private func transfer(for task: URLSessionTask) -> StreamingTransfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        transfer(for: task)?.sent(totalBytesSent)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        transfer(for: dataTask)?.received(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(for: dataTask) else { return }
        if !transfer.received(data) { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        transfer.completed(response: task.response, error: error)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        let isHTTPChallenge =
            challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodHTTPBasic
            || challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodHTTPDigest
        completionHandler(isHTTPChallenge ? .cancelAuthenticationChallenge : .performDefaultHandling, nil)
        #else
        completionHandler(.performDefaultHandling, nil)
        #endif
    }
}

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of ``URLSessionTransport/sharedSession``: it refuses every redirect, so the `3xx`
/// answer completes the task and the pipeline applies the service's redirect policy.
final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

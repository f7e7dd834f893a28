public import Dispatch
import Foundation
public import Switchyard

extension APIClient {
    /// Where completion blocks are called when the caller names no queue: the main queue on Apple
    /// platforms; elsewhere a serial queue of Switchyard's own.
    ///
    /// Outside Apple platforms nothing guarantees that the main queue is drained — a server that
    /// blocks its main thread in an event loop never runs it — so the default there is a serial queue
    /// that always runs: completions (and the progress blocks of their options) arrive one at a time,
    /// in order, off the main thread. Pass `.main` to `queue` when your program does drain it (an
    /// `async` `main`, `dispatchMain()`, a `RunLoop`).
    public static let defaultCompletionQueue: DispatchQueue = {
        #if canImport(Darwin)
        DispatchQueue.main
        #else
        DispatchQueue(label: "switchyard.completions")
        #endif
    }()

    /// Sends a call and calls `completion` with its result on `queue` — for code that is not
    /// `async` yet.
    ///
    /// The call is the one ``send(_:options:)`` makes, on the same async core: same pipeline,
    /// options, errors and result. `completion` is called exactly once, on `queue`, whatever
    /// happens — success, failure, or cancellation through the returned handle, `client.cancel(.id(id))`,
    /// a tag or a scope (then with `SwitchyardError.Code.cancelled`). The `CallOptions.uploadProgress`
    /// and `CallOptions.downloadProgress` blocks of `options` are called on `queue` too, so on a
    /// serial queue every progress call comes before the completion. A download
    /// (`Endpoint.downloading(to:options:)`) is sent the same way.
    ///
    /// ```swift
    /// client.send(GetUser(id: 7)) { result in
    ///     MainActor.assumeIsolated {                      // the main queue is the default on Apple platforms
    ///         switch result {
    ///         case .success(let user): profile.show(user.value)
    ///         case .failure(let error): profile.show(error)
    ///         }
    ///     }
    /// }
    ///
    /// var options = CallOptions()
    /// options.downloadProgress = { bar.update($0) }      // on the queue, like the completion
    /// client.send(GetInstaller(version: "2.1").downloading(to: target), options: options) { result in
    ///     print(result.map(\.value.url))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: what to call.
    ///   - options: adjustments for this call, applied on top of the endpoint's own options.
    ///   - queue: where `completion` and the progress blocks are called; ``defaultCompletionQueue``
    ///     (the main queue on Apple platforms) unless given.
    ///   - completion: told the call's result, once.
    /// - Returns: the running call's handle, to cancel it or read its id.
    @discardableResult
    public func send<E: Endpoint>(
        _ endpoint: E,
        options: CallOptions? = nil,
        queue: DispatchQueue = APIClient.defaultCompletionQueue,
        completion: @escaping @Sendable (Result<CallResult<E.Output>, SwitchyardError>) -> Void
    ) -> CallHandle<E.Output> {
        start(endpoint, options: Self.progress(of: options, on: queue)) { outcome in
            queue.async { completion(outcome) }
        }
    }

    /// `options` with its progress blocks moved onto `queue`.
    private static func progress(of options: CallOptions?, on queue: DispatchQueue) -> CallOptions? {
        guard var options else { return nil }
        if let upload = options.uploadProgress {
            options.uploadProgress = { progress in queue.async { upload(progress) } }
        }
        if let download = options.downloadProgress {
            options.downloadProgress = { progress in queue.async { download(progress) } }
        }
        return options
    }
}

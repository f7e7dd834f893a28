@_spi(SwitchyardKernel) import SwitchyardCore

extension CallOptions {
    /// The option under which ``CallOptions/uploadProgress`` sets a call's upload block; an
    /// endpoint's and a call's are both called, the endpoint's first.
    enum UploadProgress: ClientOptionKey {
        typealias Value = @Sendable (TransferProgress) -> Void
        static let name = "uploadProgress"
        static func merge(_ earlier: @escaping Value, _ later: @escaping Value) -> Value { CallOptions.both(earlier, later) }
    }

    /// The option under which ``CallOptions/downloadProgress`` sets a call's download block; an
    /// endpoint's and a call's are both called, the endpoint's first.
    enum DownloadProgress: ClientOptionKey {
        typealias Value = @Sendable (TransferProgress) -> Void
        static let name = "downloadProgress"
        static func merge(_ earlier: @escaping Value, _ later: @escaping Value) -> Value { CallOptions.both(earlier, later) }
    }

    /// Called as the request body goes out, with the bytes sent so far and the body's size when it
    /// is known — the per-call `uploadProgress` block, no ``Accessory`` needed.
    ///
    /// It is called in order, on the transport's task, each time the transport reports (a streamed
    /// body chunk by chunk; a body in memory when it has gone out): return quickly, and hand the value
    /// to the main actor for a UI. A retried attempt counts from zero again. The options of
    /// `APIClient.send(_:options:queue:completion:)` call it on the completion's queue instead.
    ///
    /// ```swift
    /// var options = CallOptions()
    /// options.uploadProgress = { progress in print("sent", progress) }   // "sent 65536/262144 bytes (25%)"
    /// ```
    public var uploadProgress: (@Sendable (TransferProgress) -> Void)? {
        get { self[option: UploadProgress.self] }
        set { self[option: UploadProgress.self] = newValue }
    }

    /// Called as the response body comes in, with the bytes received so far and the total when the
    /// server said it — the per-call `downloadProgress` block, no ``Accessory`` needed. A download to a
    /// file counts the whole resource, continuing where a resumed attempt started. Called the way
    /// ``uploadProgress`` is.
    public var downloadProgress: (@Sendable (TransferProgress) -> Void)? {
        get { self[option: DownloadProgress.self] }
        set { self[option: DownloadProgress.self] = newValue }
    }

    /// Writes the progress blocks, if any, into a context as a `TransferObserver`.
    func writeProgress(into context: inout CallContext) {
        let upload = uploadProgress
        let download = downloadProgress
        guard upload != nil || download != nil else { return }
        context.transferObserver = TransferObserver(sent: upload ?? { _ in }, received: download ?? { _ in })
            .combined(with: context.transferObserver)
    }

    /// A block that calls `first` and then `second`.
    private static func both(
        _ first: @escaping @Sendable (TransferProgress) -> Void,
        _ second: @escaping @Sendable (TransferProgress) -> Void
    ) -> @Sendable (TransferProgress) -> Void {
        {
            first($0)
            second($0)
        }
    }
}

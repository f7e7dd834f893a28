import Foundation

extension APIClient {
    /// Starts a call and returns its handle at once: the ``CallHandle/id`` before the call ends, a
    /// stream of upload and download ``CallHandle/progress``, its ``CallHandle/state``,
    /// ``CallHandle/cancel()``, and ``CallHandle/value`` or ``CallHandle/result`` to await.
    ///
    /// The call is the one ``send(_:options:)`` makes — same pipeline, options, errors and result —
    /// run in a task of its own; the progress ``CallOptions/uploadProgress`` and
    /// ``CallOptions/downloadProgress`` blocks in `options` are called as well.
    ///
    /// A call whose failure the app ignores is started here and its handle dropped — no completion and no
    /// awaiting code hear of it — with ``StageID/accessories`` in ``CallOptions/skippedStages`` so that the
    /// accessories that show failures do not either; dropping the handle does not cancel the call.
    ///
    /// ```swift
    /// let handle = client.start(UploadAvatar(image: file))
    /// cancelButton.action = { client.cancel(.id(handle.id)) }
    /// let avatar = try await handle.value
    ///
    /// // A download: resumptions included, under the handle's one id.
    /// let installer = client.start(GetInstaller(version: "2.1").downloading(to: target))
    /// for await progress in installer.progress { print(progress.download?.fraction ?? 0) }
    /// let file = try await installer.value
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: what to call.
    ///   - options: adjustments for this call, applied on top of the endpoint's own options.
    /// - Returns: the running call's handle.
    public func start<E: Endpoint>(_ endpoint: E, options: CallOptions? = nil) -> CallHandle<E.Output> {
        start(endpoint, options: options, finished: nil)
    }

    /// ``start(_:options:)`` with a block told the outcome before any awaiter of the handle; `package`:
    /// the completion-handler API (SwitchyardAppState) is built on it.
    package func start<E: Endpoint>(
        _ endpoint: E,
        options: CallOptions?,
        finished: (@Sendable (CallHandle<E.Output>.Outcome) -> Void)?
    ) -> CallHandle<E.Output> {
        let id = RequestID.next()
        return CallHandle(id: id, tracker: tracker, finished: finished) { progress in
            do throws(SwitchyardError) {
                let options = (options ?? CallOptions()).applying(progress)
                return .success(try await call(endpoint, options: options, requestID: id))
            } catch {
                return .failure(error)
            }
        }
    }
}

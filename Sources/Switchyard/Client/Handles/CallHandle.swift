import Synchronization

/// A call that is running: its ``id`` from the start, a stream of its upload and download
/// ``progress``, its ``state``, ``cancel()``, and its ``value`` or ``result`` to await.
///
/// Start one with ``APIClient/start(_:options:)`` (for a download too: ``Endpoint/downloading(to:options:)``);
/// the call runs at once, in a task of its own, through the same pipeline as
/// ``APIClient/send(_:options:)``.
///
/// ```swift
/// let upload = client.start(UploadAvatar(image: file))
/// screen.pendingUpload = upload.id                       // known before the call ends
/// for await progress in upload.progress {                // ends when the call ends
///     bar.fraction = progress.upload?.fraction ?? 0
/// }
/// let avatar = try await upload.value
/// ```
///
/// The handle only watches the call; it does not own it. Dropping the handle lets the call go on
/// (give it a ``RequestScope`` to end it with its owner), and cancelling a task that awaits
/// ``value`` does not cancel the call — as with `Task`. ``cancel()``, `client.cancel(.id(id))` and
/// `client.cancel(.ids(ids))` do, even before the call has reached the pipeline.
public final class CallHandle<Output: Sendable>: Sendable {
    /// What a finished call produced.
    public typealias Outcome = Result<CallResult<Output>, SwitchyardError>

    /// The call's id: the ``CallResult/requestID`` and the ``SwitchyardError/requestID`` it will
    /// end with, and what `client.cancel(.id(_:))` takes.
    public let id: RequestID

    private struct Core {
        var state: CallState = .running
        var progress = CallProgress()
        var hasProgress = false
        var readers: [Int: AsyncStream<CallProgress>.Continuation] = [:]
        var nextReader = 0
        var task: Task<Outcome, Never>?
        var cancelRequested = false
    }

    private let core = Mutex(Core())

    /// Starts `operation` under `id`, registered with `tracker` so that cancelling by id reaches
    /// it before it is in flight; `finished` is called once with the outcome, before any awaiter of
    /// ``result`` resumes.
    init(
        id: RequestID,
        tracker: CallTracker,
        finished: (@Sendable (Outcome) -> Void)? = nil,
        operation: @escaping @Sendable (_ progress: CallOptions) async -> Outcome
    ) {
        self.id = id
        self.tracker = tracker
        var reporting = CallOptions()
        reporting.uploadProgress = { [weak self] in self?.report(upload: $0) }
        reporting.downloadProgress = { [weak self] in self?.report(download: $0) }
        let progressOptions = reporting
        // Every cancel that reaches the call through the client — by id, tag, service, account, scope,
        // `cancel(.all)` — takes this hook in the same critical section that reports the call cancelled.
        tracker.register(id) { [weak self] in self?.markCancelled() }
        let task = Task { [self] () -> Outcome in
            let outcome = await operation(progressOptions)
            // `false`: a cancel API that reported this call took its hook first, and the call ends
            // cancelled whatever it produced meanwhile (the hook may not have run yet).
            let reported = !tracker.unregister(id)
            let final = end(with: outcome, cancelled: reported)
            finished?(final)
            return final
        }
        let cancelNow = core.withLock { core in
            core.task = task
            return core.cancelRequested
        }
        if cancelNow { task.cancel() }
    }

    /// The calls in flight, which ``cancel()`` goes through as `client.cancel(.id(id))` does.
    private let tracker: CallTracker

    /// Where the call stands now.
    public var state: CallState { core.withLock { $0.state } }

    /// The latest upload and download progress (both `nil` before the transport's first report).
    public var currentProgress: CallProgress { core.withLock { $0.progress } }

    /// A stream of the call's progress: the latest value first (when there is one), then one event
    /// per report from the transport, ending when the call ends.
    ///
    /// Each access makes a new stream, so several readers can follow one call. Upload and download
    /// counts never go backwards within an attempt (a retried attempt counts from zero again, a
    /// resumed download continues where it stopped) and the last event of a completed transfer
    /// has its total. A reader that falls behind skips to the newest events, which carry both
    /// directions in full.
    public var progress: AsyncStream<CallProgress> {
        let (stream, continuation) = AsyncStream.makeStream(of: CallProgress.self, bufferingPolicy: .bufferingNewest(32))
        let reader = core.withLock { core -> Int? in
            if core.hasProgress { continuation.yield(core.progress) }
            guard !core.state.isFinished else { return nil }
            let reader = core.nextReader
            core.nextReader += 1
            core.readers[reader] = continuation
            return reader
        }
        if let reader {
            continuation.onTermination = { [weak self] _ in
                _ = self?.core.withLock { $0.readers.removeValue(forKey: reader) }
            }
        } else {
            continuation.finish()
        }
        return stream
    }

    /// Cancels the call: it ends with ``SwitchyardError/Code/cancelled`` and the state
    /// ``CallState/cancelled``, unless it has already ended. Safe to call at any time, any number of times.
    ///
    /// Exact, as `client.cancel(.id(id))` is: once it returns, ``state`` reads ``CallState/cancelled``
    /// (or the state the call had already ended in) and never changes again, and ``result`` is that
    /// state's outcome — an answer arriving at the same moment is dropped, never delivered as a success.
    public func cancel() {
        markCancelled()
        // The call in flight is marked cancelled (its pipeline stops, a flight it shares is left) and
        // the hook forgotten, as by `client.cancel(.id(id))`.
        tracker.cancel(id, .cancelled("cancelled through its handle"))
        tracker.cancelHandles([id])
    }

    /// Records the cancel under the handle's lock — the call, if it has not ended, now reads cancelled
    /// and will end so — and cancels its task.
    private func markCancelled() {
        let task = core.withLock { core -> Task<Outcome, Never>? in
            core.cancelRequested = true
            if case .running = core.state { core.state = .cancelled }
            return core.task
        }
        task?.cancel()
    }

    /// The call's output; throws the error it ended with.
    public var value: Output {
        get async throws(SwitchyardError) { try await result.get().value }
    }

    /// The call's result with its metadata (status, attempts, source…), or the error it ended with.
    public var result: Outcome {
        get async {
            guard let task = core.withLock({ $0.task }) else {
                // Unreachable: the task is set in `init` before the handle is returned.
                return .failure(SwitchyardError(code: .cancelled, message: "The call never started."))
            }
            return await task.value
        }
    }

    private func report(upload: TransferProgress) {
        core.withLock { core in
            core.progress.upload = upload
            publish(&core)
        }
    }

    private func report(download: TransferProgress) {
        core.withLock { core in
            core.progress.download = download
            publish(&core)
        }
    }

    /// Sends the progress to every reader; under the lock, so that readers see reports in order.
    private func publish(_ core: inout Core) {
        guard !core.state.isFinished else { return }
        core.hasProgress = true
        for reader in core.readers.values { reader.yield(core.progress) }
    }

    /// Settles the call's end under the handle's lock: a cancel recorded first (through ``cancel()``, or
    /// `reported` by the client's cancel APIs) makes it end cancelled whatever `outcome` is.
    private func end(with outcome: Outcome, cancelled reported: Bool) -> Outcome {
        let (final, readers) = core.withLock { core -> (Outcome, [AsyncStream<CallProgress>.Continuation]) in
            var final = outcome
            let wasCancelled: Bool
            if case .cancelled = core.state { wasCancelled = true } else { wasCancelled = reported }
            let failure: SwitchyardError? = if case .failure(let error) = outcome { error } else { nil }
            if wasCancelled, failure?.code != .cancelled {
                var cancelled = SwitchyardError(code: .cancelled, message: "The call was cancelled through its handle.")
                cancelled.requestID = id
                cancelled.underlyingError = failure
                final = .failure(cancelled)
            }
            switch final {
            case .success: core.state = .succeeded
            case .failure(let error) where error.code == .cancelled: core.state = .cancelled
            case .failure(let error): core.state = .failed(error)
            }
            defer { core.readers.removeAll() }
            return (final, Array(core.readers.values))
        }
        // Outside the lock: finishing runs the readers' termination handlers, which take it.
        for reader in readers { reader.finish() }
        return final
    }
}

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The task of one call and why it was stopped, so that a cancellation arriving before the task
/// starts still cancels it, and the completion handler can tell the caller's cancellation from the
/// attempt's timeout and from a refused authentication challenge.
final class TaskBox: @unchecked Sendable {
    /// Why the transport stopped the task itself.
    enum Stop {
        /// The caller's task was cancelled.
        case cancelled
        /// The attempt's time limit passed.
        case expired
    }

    // Guarded by `lock`; URLSessionTask is thread-safe for `resume`, `cancel` and `response`.
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var stopped: Stop?
    /// Whether a streamed answer's head arrived: its time limit then no longer applies.
    private var answered = false

    /// Starts `task`, or cancels it at once when the call was stopped before it started.
    func start(_ task: URLSessionTask) {
        lock.lock()
        self.task = task
        let stopped = self.stopped
        lock.unlock()
        if stopped != nil { task.cancel() } else { task.resume() }
    }

    /// Stops the task for `reason`; the first reason is the one reported. The time limit does not stop
    /// a streamed answer whose head arrived, however late the waiting call gets to disarm it.
    func stop(_ reason: Stop) {
        lock.lock()
        if reason == .expired, answered {
            lock.unlock()
            return
        }
        if stopped == nil { stopped = reason }
        let task = self.task
        lock.unlock()
        task?.cancel()
    }

    /// Records that a streamed answer's head arrived, ending its time limit.
    func headArrived() {
        lock.lock()
        answered = true
        lock.unlock()
    }

    /// Suspends the running task, so that it stops reading (Apple platforms: see ``StreamBridge``).
    func pause() {
        lock.lock()
        let task = self.task
        lock.unlock()
        task?.suspend()
    }

    /// Resumes a task ``pause()`` suspended.
    func unpause() {
        lock.lock()
        let task = self.task
        lock.unlock()
        task?.resume()
    }

    /// Why the transport stopped the task, or `nil` when it did not.
    var stop: Stop? {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// The response head the task received, if any — still there when the task was cancelled after it.
    var response: URLResponse? {
        lock.lock()
        let task = self.task
        lock.unlock()
        return task?.response
    }
}

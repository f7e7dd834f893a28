public import Switchyard
import Synchronization

/// An ``Switchyard/Accessory`` that keeps every upload and download progress value it is told about,
/// for tests of transfers: is progress monotonic, does it reach the total?
///
/// ```swift
/// let progress = ProgressRecorder()
/// var options = CallOptions()
/// options.attach([progress])
/// _ = try await client.send(DynamicEndpoint<Response>(service: .files, method: .get, path: "/big.bin").downloading(to: target), options: options)
/// await progress.waitForFinishes(1)
/// #expect(ProgressRecorder.isMonotonic(progress.received) && progress.received.last?.isComplete == true)
/// ```
public final class ProgressRecorder: Accessory {
    private struct State {
        var sent: [TransferProgress] = []
        var received: [TransferProgress] = []
        var finishes = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    /// Creates an empty recorder.
    public init() {}

    /// Upload progress, in the order reported.
    public var sent: [TransferProgress] { state.withLock { $0.sent } }
    /// Download progress, in the order reported.
    public var received: [TransferProgress] { state.withLock { $0.received } }
    /// How many calls have finished.
    public var finishes: Int { state.withLock { $0.finishes } }

    /// Records upload progress.
    public func call(_ call: AccessoryCall, didSend progress: TransferProgress) {
        state.withLock { $0.sent.append(progress) }
    }

    /// Records download progress.
    public func call(_ call: AccessoryCall, didReceive progress: TransferProgress) {
        state.withLock { $0.received.append(progress) }
    }

    /// Counts the finish and wakes the waiters whose count is reached.
    public func callDidFinish(_ call: AccessoryCall, outcome: Result<AccessoryCall.Outcome, SwitchyardError>) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.finishes += 1
            let finishes = state.finishes
            let ready = state.waiters.filter { $0.count <= finishes }.map(\.continuation)
            state.waiters.removeAll { $0.count <= finishes }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once `count` calls have finished (their events are delivered after the call returns).
    public func waitForFinishes(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.finishes >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Whether the values never go backwards and share one total.
    public static func isMonotonic(_ values: [TransferProgress]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0.completed <= $1.completed && $0.total == $1.total }
    }
}

public import Switchyard
import Synchronization

/// An ``Accessory`` that records every event as a line of text in an ``EventRecorder`` and lets a
/// test wait until the call's finish has been delivered.
public final class RecordingAccessory: Accessory {
    /// The prefix of every recorded line.
    public let label: String
    /// Where the lines go.
    public let recorder: EventRecorder
    private let finished = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let done = Atomic<Bool>(false)

    /// Creates an accessory that records into `recorder`, each line starting with `label`.
    public init(_ label: String, recorder: EventRecorder) {
        self.label = label
        self.recorder = recorder
    }

    /// Records `<label> willStart <METHOD> <path>`.
    public func callWillStart(_ call: AccessoryCall) { recorder.record("\(label) willStart \(call.method.rawValue) \(call.path)") }
    /// Records `<label> didStart`.
    public func callDidStart(_ call: AccessoryCall) { recorder.record("\(label) didStart") }
    /// Records `<label> sent <progress>`.
    public func call(_ call: AccessoryCall, didSend progress: TransferProgress) { recorder.record("\(label) sent \(progress)") }
    /// Records `<label> received <progress>`.
    public func call(_ call: AccessoryCall, didReceive progress: TransferProgress) { recorder.record("\(label) received \(progress)") }
    /// Records `<label> finished <status> <size> B` or `<label> failed <code>`, and wakes waiters.
    public func callDidFinish(_ call: AccessoryCall, outcome: Result<AccessoryCall.Outcome, SwitchyardError>) {
        switch outcome {
        case .success(let outcome): recorder.record("\(label) finished \(outcome.status.code) \(outcome.bodySize) B")
        case .failure(let error): recorder.record("\(label) failed \(error.code)")
        }
        done.store(true, ordering: .sequentiallyConsistent)
        for waiter in finished.withLock({ waiters in
            defer { waiters.removeAll() }
            return waiters
        }) { waiter.resume() }
    }

    /// Returns once the finish event has been delivered.
    public func waitForFinish() async {
        await withCheckedContinuation { continuation in
            let resumeNow = finished.withLock { waiters -> Bool in
                if done.load(ordering: .sequentiallyConsistent) { return true }
                waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}

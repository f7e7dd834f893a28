import Foundation
import Switchyard
import Synchronization

/// A progress bar on the terminal: one line when a call starts, a bar for each quarter of its
/// upload and download, and one line when it ends. It only observes; events reach it on their own
/// task, so printing never holds up the call.
final class TerminalProgressAccessory: Accessory {
    /// The last quarter printed, per call and direction.
    private let printed = Mutex<[String: Int]>([:])

    func callWillStart(_ call: AccessoryCall) {
        print("      ⋯ \(call.method.rawValue) \(call.path) starting")
    }

    func call(_ call: AccessoryCall, didSend progress: TransferProgress) {
        bar("↑", progress, key: "\(call.requestID)↑")
    }

    func call(_ call: AccessoryCall, didReceive progress: TransferProgress) {
        bar("↓", progress, key: "\(call.requestID)↓")
    }

    func callDidFinish(_ call: AccessoryCall, outcome: Result<AccessoryCall.Outcome, SwitchyardError>) {
        switch outcome {
        case .success(let outcome):
            print("      ✓ \(outcome.status.code) after \(outcome.duration.formatted(.units(allowed: [.milliseconds])))")
        case .failure(let error):
            print("      ✗ \(error.code)")
        }
    }

    /// Prints a 20-cell bar each time the transfer reaches another quarter (0, 25, 50, 75, 100 %).
    private func bar(_ arrow: String, _ progress: TransferProgress, key: String) {
        guard let fraction = progress.fraction else {
            print("      \(arrow) \(progress.completed) bytes")
            return
        }
        let quarter = Int(fraction * 4)
        let isNew = printed.withLock { printed in
            guard printed[key].map({ quarter > $0 }) ?? true else { return false }
            printed[key] = quarter
            return true
        }
        guard isNew else { return }
        let filled = Int(fraction * 20)
        print("      \(arrow) [\(String(repeating: "█", count: filled))\(String(repeating: "·", count: 20 - filled))] \(progress)")
    }
}

import Observation

/// Prints each state an observable expression goes through, the way a screen observes its state:
/// read it inside `withObservationTracking`, be told of the next change, and read it again once
/// the change has been made — on the main actor, where the loaders make their changes when the
/// program drives them from there.
@MainActor
final class TransitionPrinter {
    private let label: String
    private let read: @MainActor () -> String
    private var last: String?
    private var stopped = false

    /// Starts printing `read()` under `label`: its current value now, and each new one after a change.
    init(_ label: String, _ read: @escaping @MainActor () -> String) {
        self.label = label
        self.read = read
        observe()
    }

    /// Stops printing (the screen went away).
    func stop() {
        stopped = true
    }

    private func observe() {
        guard !stopped else { return }
        let now = withObservationTracking {
            read()
        } onChange: { [weak self] in
            // Told before the change is made: read the new state once it has been made.
            Task { @MainActor in self?.observe() }
        }
        if now != last { print("  [\(label)] \(now)") }
        last = now
    }
}

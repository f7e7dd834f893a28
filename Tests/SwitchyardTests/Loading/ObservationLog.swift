import Observation

/// Records each value an observed expression takes, the way a UI observes: read it inside
/// `withObservationTracking`, be told of the next change, and read it again once the change has
/// been made (the change is announced before it is made, so the new value is read a moment later,
/// on the main actor).
@MainActor
final class ObservationLog<Value: Sendable> {
    /// Every value read, the first one at creation.
    private(set) var values: [Value] = []
    private let read: @MainActor () -> Value
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(_ read: @escaping @MainActor () -> Value) {
        self.read = read
        observe()
    }

    private func observe() {
        let value = withObservationTracking {
            read()
        } onChange: { [weak self] in
            Task { @MainActor in self?.observe() }
        }
        values.append(value)
        let count = values.count
        let ready = waiters.filter { $0.count <= count }.map(\.continuation)
        waiters.removeAll { $0.count <= count }
        for waiter in ready { waiter.resume() }
    }

    /// Returns once `count` values have been recorded.
    func wait(for count: Int) async {
        guard values.count < count else { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }
}

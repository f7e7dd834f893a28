import Observation
import Switchyard
import Synchronization

/// The state of an observable loader behind a lock, with the Observation registrar that tells its
/// observers — SwiftUI, `withObservationTracking` — about every change.
///
/// A loader's public properties all read one state value and register the read under one key path,
/// so they change together: an observer never sees a new value beside an old `isLoading`.
final class ObservedState<Value: Sendable>: Sendable {
    private let registrar = ObservationRegistrar()
    private let storage: Mutex<Value>

    init(_ value: Value) {
        storage = Mutex(value)
    }

    /// Reads the state, registering the read with Observation under `keyPath`.
    func read<Subject: Observable, Member, Result: Sendable>(
        _ subject: Subject,
        _ keyPath: KeyPath<Subject, Member>,
        _ body: (Value) -> Result
    ) -> Result {
        registrar.access(subject, keyPath: keyPath)
        return storage.withLock { body($0) }
    }

    /// Changes the state as one observed mutation of `keyPath`.
    func change<Subject: Observable, Member, Result: Sendable>(
        _ subject: Subject,
        _ keyPath: KeyPath<Subject, Member>,
        _ body: (inout Value) -> Result
    ) -> Result {
        registrar.willSet(subject, keyPath: keyPath)
        defer { registrar.didSet(subject, keyPath: keyPath) }
        return storage.withLock { body(&$0) }
    }

    /// Reads or changes the state without telling observers (for bookkeeping they do not see).
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        storage.withLock { body(&$0) }
    }
}

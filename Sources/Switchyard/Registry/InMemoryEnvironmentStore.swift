import Synchronization

/// An ``EnvironmentStore`` that keeps the selection in memory, shared by every registry given the
/// same instance. Useful in tests and for apps that persist nothing.
public final class InMemoryEnvironmentStore: EnvironmentStore {
    private let stored: Mutex<EnvironmentSelection?>

    /// Creates a store, optionally holding a selection already.
    public init(_ selection: EnvironmentSelection? = nil) { stored = Mutex(selection) }

    /// Returns the stored selection.
    public func load() -> EnvironmentSelection? { stored.withLock { $0 } }

    /// Replaces the stored selection.
    public func save(_ selection: EnvironmentSelection) { stored.withLock { $0 = selection } }
}

import Synchronization

/// A thread-safe list of events, for asserting the order in which stages ran.
///
/// ```swift
/// let recorder = EventRecorder()
/// let stages = [RecordingStage("A", recorder), RecordingStage("B", recorder)]
/// // … send a call …
/// #expect(recorder.events == ["A in", "B in", "B out", "A out"])
/// ```
public final class EventRecorder: Sendable {
    private let storage = Mutex<[String]>([])

    /// Creates an empty recorder.
    public init() {}

    /// Appends an event.
    public func record(_ event: String) { storage.withLock { $0.append(event) } }

    /// The events so far, in order.
    public var events: [String] { storage.withLock { $0 } }

    /// Removes all events.
    public func reset() { storage.withLock { $0.removeAll() } }
}

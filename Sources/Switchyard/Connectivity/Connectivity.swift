import Foundation
import Synchronization

/// A client's view of whether its services can be reached, for calls that wait for it
/// (``CallOptions/waitsForConnectivity``) and for an app's UI (``updates()``).
///
/// Every client has one (``APIClient/connectivity``), shared by its copies. The transports' own
/// outcomes drive it: a connection failure (``SwitchyardError/Code/transport``) makes it
/// ``State/unreachable``, any answer makes it ``State/reachable`` again — so every call, a waiting
/// call's own retries included, is a probe. A platform signal can drive it too: on Apple platforms
/// feed it from Network's path monitor with ``report(_:)``.
///
/// ```swift
/// for await state in client.connectivity.updates() {
///     banner.isHidden = state != .unreachable
/// }
/// ```
public final class Connectivity: Sendable {
    /// Whether the services can be reached.
    public enum State: UInt8, Sendable, Hashable {
        /// Nothing has been learned yet.
        case unknown = 0
        /// The last exchange got an answer, or the platform reports a usable path.
        case reachable = 1
        /// The last exchange failed to connect, or the platform reports no usable path.
        case unreachable = 2
    }

    /// The state, readable without a lock on the calls' path.
    private let current = Atomic<UInt8>(State.unknown.rawValue)
    /// Subscribers to changes and calls waiting for one.
    private let listeners = Mutex<Listeners>(Listeners())

    private struct Listeners {
        var streams: [UUID: AsyncStream<State>.Continuation] = [:]
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    /// Creates a signal in the ``State/unknown`` state.
    public init() {}

    /// The current state.
    public var state: State { State(rawValue: current.load(ordering: .relaxed)) ?? .unknown }

    /// The current state, then each change, for as long as the stream is iterated.
    public func updates() -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self, bufferingPolicy: .bufferingNewest(8))
        let id = UUID()
        listeners.withLock { $0.streams[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.listeners.withLock { _ = $0.streams.removeValue(forKey: id) } }
        continuation.yield(state)
        return stream
    }

    /// Sets the state from a platform signal (a path monitor) or the app; waiting calls go when it
    /// becomes ``State/reachable``.
    public func report(_ state: State) {
        let previous = current.exchange(state.rawValue, ordering: .relaxed)
        guard previous != state.rawValue else { return }
        let (streams, waiters) = listeners.withLock { listeners in
            let waiters = state == .unreachable ? [] : Array(listeners.waiters.values)
            if state != .unreachable { listeners.waiters = [:] }
            return (Array(listeners.streams.values), waiters)
        }
        for stream in streams { stream.yield(state) }
        for waiter in waiters { waiter.resume() }
    }

    /// An answer arrived: one load when the state is already reachable.
    @inline(__always)
    func noteAnswer() {
        if current.load(ordering: .relaxed) != State.reachable.rawValue { report(.reachable) }
    }

    /// A connection failed.
    func noteConnectionFailure() {
        if current.load(ordering: .relaxed) != State.unreachable.rawValue { report(.unreachable) }
    }

    /// Waits until the state leaves ``State/unreachable`` or `interval` passes, whichever is first;
    /// returns at once when it is not unreachable. Ends early, without throwing, when the task is cancelled.
    func waitWhileUnreachable(upTo interval: Duration) async {
        guard state == .unreachable, interval > .zero else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.nextReachable() }
            group.addTask { try? await Task.sleep(for: interval) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Returns when the state next leaves ``State/unreachable`` (at once when it is not), or when
    /// the task is cancelled.
    private func nextReachable() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = listeners.withLock { listeners -> Bool in
                    if Task.isCancelled || current.load(ordering: .relaxed) != State.unreachable.rawValue { return true }
                    listeners.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            listeners.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}

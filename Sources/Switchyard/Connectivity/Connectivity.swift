import Foundation
import Synchronization

/// A client's view of whether its services can be reached, for calls that wait for it
/// (``CallOptions/waitsForConnectivity``) and for an app's UI (``updates()``).
///
/// Every client has one (``APIClient/connectivity``), shared by its copies. The transports' own
/// outcomes drive it: a connection failure (``SwitchyardError/Code/transport``) makes it
/// ``State/unreachable``, any answer makes it ``State/reachable`` again — so every call, a waiting
/// call's own retries included, is a probe; a service's ``ServiceDefaults/connectivityProbe`` lets
/// waiting calls ask a cheap path instead of resending themselves. On Apple platforms Network's path
/// monitor feeds it too; an app can feed any other signal with ``report(_:)``.
///
/// The signal is kept from the moment something looks at it — ``state``, ``updates()``,
/// ``report(_:)``, a call that waits for connectivity, an outbox — so a client nobody asks about
/// connectivity pays nothing for it on its calls.
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
    /// Whether the signal is kept: the calls' one check, a load, while nothing looks at it.
    private let watched = Atomic<Bool>(false)
    /// How many times the state left ``State/unreachable``: what a wait for connectivity to return
    /// compares, so a return between two looks is never missed.
    private let returns = Atomic<UInt64>(0)
    /// Subscribers to changes and waits for connectivity to return.
    private let listeners = Mutex<Listeners>(Listeners())
    #if canImport(Network)
    /// Network's path monitor, started when the signal is first looked at.
    private let pathMonitor = Mutex<PathMonitorSignal?>(nil)
    #endif

    private struct Listeners {
        var streams: [UUID: AsyncStream<State>.Continuation] = [:]
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    /// Creates a signal in the ``State/unknown`` state.
    public init() {}

    /// The current state.
    public var state: State {
        watch()
        return peek
    }

    /// The current state, without starting to keep the signal.
    var peek: State { State(rawValue: current.load(ordering: .relaxed)) ?? .unknown }

    /// The current state, then each change, for as long as the stream is iterated.
    public func updates() -> AsyncStream<State> {
        watch()
        let (stream, continuation) = AsyncStream.makeStream(of: State.self, bufferingPolicy: .bufferingNewest(8))
        let id = UUID()
        listeners.withLock { $0.streams[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.listeners.withLock { _ = $0.streams.removeValue(forKey: id) } }
        continuation.yield(peek)
        return stream
    }

    /// Sets the state from a platform signal (a path monitor) or the app; waiting calls go when it
    /// becomes ``State/reachable``.
    public func report(_ state: State) {
        watch()
        let previous = current.exchange(state.rawValue, ordering: .relaxed)
        guard previous != state.rawValue else { return }
        let returned = previous == State.unreachable.rawValue
        // Counted before the waiters are taken: a wait that registers after this sees the new count.
        if returned { returns.add(1, ordering: .relaxed) }
        let (streams, waiters) = listeners.withLock { listeners in
            let waiters = returned ? Array(listeners.waiters.values) : []
            if returned { listeners.waiters = [:] }
            return (Array(listeners.streams.values), waiters)
        }
        for stream in streams { stream.yield(state) }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether the signal is kept; while it is not, calls that do not wait neither read nor write it.
    @inline(__always)
    var isWatched: Bool { watched.load(ordering: .relaxed) }

    /// Starts keeping the signal (and, on Apple platforms, the path monitor); once is enough.
    package func watch() {
        guard !watched.load(ordering: .relaxed), !watched.exchange(true, ordering: .relaxed) else { return }
        startPlatformSignal()
    }

    /// How many times the state has left ``State/unreachable`` so far: pass it to
    /// ``waitForReturn(since:upTo:)``.
    package var returnCount: UInt64 { returns.load(ordering: .relaxed) }

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
        // The count first: a return after it is seen, whether or not the state read below saw it.
        let since = returnCount
        guard peek == .unreachable else { return }
        await waitForReturn(since: since, upTo: interval)
    }

    /// Waits until the state has left ``State/unreachable`` more often than `since` counts (see
    /// ``returnCount``) or `interval` passes, whichever is first. Ends early, without throwing, when
    /// the task is cancelled.
    package func waitForReturn(since: UInt64, upTo interval: Duration) async {
        guard returnCount == since, interval > .zero else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.nextReturn(since: since) }
            group.addTask { try? await Task.sleep(for: interval) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Returns when the state has left ``State/unreachable`` more often than `since` counts (at once
    /// when it has), or when the task is cancelled.
    private func nextReturn(since: UInt64) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = listeners.withLock { listeners -> Bool in
                    if Task.isCancelled || returns.load(ordering: .relaxed) != since { return true }
                    listeners.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            listeners.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Starts the platform's signal, where there is one.
    private func startPlatformSignal() {
        #if canImport(Network)
        pathMonitor.withLock { $0 = PathMonitorSignal(feeding: self) }
        #endif
    }
}

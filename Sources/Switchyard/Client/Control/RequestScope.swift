import Synchronization

/// An owner's handle on the calls it starts — a screen, a view model, a job. Pass it with
/// ``CallOptions/scope``; when the owner releases the scope (or calls ``cancelAll()``), every call
/// still in flight in it is cancelled and ends with ``SwitchyardError/Code/cancelled``.
///
/// Calls hold the scope weakly: the pipeline never keeps it — or its owner — alive.
public final class RequestScope: Sendable {
    private struct State {
        var calls: [RequestID: @Sendable () -> Void] = [:]
        var isCancelled = false
    }

    private let state = Mutex(State())

    /// Creates a scope.
    public init() {}

    /// Cancels every call in flight in the scope; calls started in it later are cancelled at once.
    public func cancelAll() {
        let cancels = state.withLock { state in
            state.isCancelled = true
            defer { state.calls.removeAll() }
            return Array(state.calls.values)
        }
        for cancel in cancels { cancel() }
    }

    /// Whether ``cancelAll()`` has been called.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// The number of calls in flight in the scope.
    public var inFlightCount: Int { state.withLock { $0.calls.count } }

    deinit {
        for cancel in state.withLock({ Array($0.calls.values) }) { cancel() }
    }

    /// A scope for a group of calls (a batch, a chain) that is cancelled whenever `parent` is. The
    /// parent is held weakly, so its owner can still release it; call `unlink` when the group ends.
    static func child(of parent: RequestScope?) -> (scope: RequestScope, unlink: @Sendable () -> Void) {
        let child = RequestScope()
        let weakParent = WeakScope(scope: parent)
        let link = RequestID.next()
        weakParent.scope?.add(link) { [weak child] in child?.cancelAll() }
        return (child, { weakParent.scope?.remove(link) })
    }

    /// Adds a call; returns `false` (and cancels it) when the scope is already cancelled.
    func add(_ id: RequestID, cancel: @escaping @Sendable () -> Void) {
        let admitted = state.withLock { state in
            guard !state.isCancelled else { return false }
            state.calls[id] = cancel
            return true
        }
        if !admitted { cancel() }
    }

    /// Removes a call that has ended.
    func remove(_ id: RequestID) {
        _ = state.withLock { $0.calls.removeValue(forKey: id) }
    }
}

/// A weak reference to a ``RequestScope``, as ``CallOptions`` keeps it.
struct WeakScope: @unchecked Sendable {
    // A weak reference is read and cleared atomically by the runtime; the box is never mutated.
    weak var scope: RequestScope?
}

extension RequestScope {
    /// The option under which ``CallOptions/scope`` names a call's scope, held weakly; the later wins.
    enum Option: ClientOptionKey {
        typealias Value = WeakScope
        static let name = "scope"
    }
}

extension CallOptions {
    /// The scope the call belongs to (held weakly): releasing it cancels the call.
    public var scope: RequestScope? {
        get { self[option: RequestScope.Option.self]?.scope }
        set { self[option: RequestScope.Option.self] = newValue.map { WeakScope(scope: $0) } }
    }

    /// Whether the options name a scope, released since or not (read without loading the scope).
    var namesScope: Bool { sets(RequestScope.Option.self) }

    /// Whether the options named a scope that has since been released: the call must not start.
    var scopeWasReleased: Bool {
        guard sets(RequestScope.Option.self), let weakScope = self[option: RequestScope.Option.self] else { return false }
        return weakScope.scope == nil
    }
}

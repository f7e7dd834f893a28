import Synchronization

/// Every call an ``APIClient`` has in flight — by id, service, tags and start order — and the
/// flights identical calls may join. Shared by all copies of a client.
final class CallTracker: Sendable {
    struct Call {
        let serviceID: ServiceID
        let tags: Set<RequestTag>
        let account: String?
        let order: UInt64
        let flight: Flight
    }

    private struct State {
        var calls: [RequestID: Call] = [:]
        var flights: [String: Flight] = [:]
        var nextOrder: UInt64 = 0
        /// How to cancel each running ``CallHandle``, from before its call is admitted until it ends.
        var handles: [RequestID: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// The flight running `key`, if any.
    func flight(for key: String) -> Flight? {
        state.withLock { $0.flights[key] }
    }

    /// What ``admit(_:key:action:serviceID:tags:account:make:)`` decided.
    enum Admission {
        /// Wait on this flight; start it first when `isNew`. `superseded` are the identical calls
        /// in flight that must now be cancelled.
        case fly(Flight, isNew: Bool, superseded: [(RequestID, Flight)])
        /// An identical call is in flight and the policy refuses this one.
        case refused
    }

    /// Registers call `id` under the same-request `action` for `key`, atomically with the check.
    func admit(
        _ id: RequestID,
        key: String?,
        action: SameRequestPolicy.Action,
        serviceID: ServiceID,
        tags: Set<RequestTag>,
        account: String?,
        make: () -> Flight
    ) -> Admission {
        state.withLock { state in
            // An abandoned flight (its last waiter left, its task is being cancelled) counts as none.
            let running = key.flatMap { state.flights[$0] }.flatMap { $0.isAbandoned ? nil : $0 }
            var superseded: [(RequestID, Flight)] = []
            let flight: Flight
            var isNew = true
            switch (action, running) {
            case (.refuseNew, .some):
                return .refused
            case (.coalesce, .some(let existing)) where existing.join(id):
                flight = existing
                isNew = false
            case (.cancelPrevious, .some):
                superseded = state.calls.filter { $0.value.flight.key == key }.map { ($0.key, $0.value.flight) }
                flight = make()
            default:
                flight = make()
            }
            if isNew {
                if let key { state.flights[key] = flight }
                _ = flight.join(id)  // a new flight always admits its first waiter
            }
            state.calls[id] = Call(serviceID: serviceID, tags: tags, account: account, order: state.nextOrder, flight: flight)
            state.nextOrder += 1
            return .fly(flight, isNew: isNew, superseded: superseded)
        }
    }

    /// Forgets a call that has ended.
    func remove(_ id: RequestID) {
        _ = state.withLock { $0.calls.removeValue(forKey: id) }
    }

    /// Forgets a flight that has ended, so later identical calls start a new one.
    func finish(_ flight: Flight) {
        guard let key = flight.key else { return }
        state.withLock { state in
            if state.flights[key] === flight { state.flights[key] = nil }
        }
    }

    /// Makes the calls chosen by `select` leave their flights with `departure`; returns their ids in
    /// start order.
    @discardableResult
    func cancel(_ departure: Flight.Departure, where select: ([(RequestID, Call)]) -> [RequestID]) -> [RequestID] {
        let chosen: [(RequestID, Flight)] = state.withLock { state in
            let ordered = state.calls.sorted { $0.value.order < $1.value.order }.map { ($0.key, $0.value) }
            // A cancelled call is no longer in flight, even before its task has noticed.
            return select(ordered).compactMap { id in state.calls.removeValue(forKey: id).map { (id, $0.flight) } }
        }
        for (id, flight) in chosen { flight.leave(id, departure) }
        return chosen.map(\.0)
    }

    /// Records how to cancel the handle of call `id` until ``unregister(_:)``.
    func register(_ id: RequestID, cancel: @escaping @Sendable () -> Void) {
        state.withLock { $0.handles[id] = cancel }
    }

    /// Forgets the handle of call `id`.
    func unregister(_ id: RequestID) {
        _ = state.withLock { $0.handles.removeValue(forKey: id) }
    }

    /// Cancels the running handles among `ids` (every one when `nil`); returns their ids.
    @discardableResult
    func cancelHandles(_ ids: Set<RequestID>?) -> [RequestID] {
        let chosen = state.withLock { state in
            state.handles.filter { ids?.contains($0.key) ?? true }
        }
        for cancel in chosen.values { cancel() }
        return Array(chosen.keys)
    }

    /// The ids in flight, in start order.
    var inFlight: [RequestID] {
        state.withLock { state in state.calls.sorted { $0.value.order < $1.value.order }.map(\.key) }
    }
}

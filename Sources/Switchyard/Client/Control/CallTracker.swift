import Synchronization

/// Every call an ``APIClient`` has in flight — by id, service, tags and start order — and the
/// flights identical calls may join. Shared by all copies of a client.
final class CallTracker: Sendable {
    struct Call {
        let serviceID: ServiceID
        let tags: Set<RequestTag>
        let account: String?
        let order: UInt64
        /// The call's control: marked cancelled in the same critical section that removes the call,
        /// so a call reported cancelled always ends cancelled.
        let control: CallControl
        /// The flight it waits on, when identical calls may join it; `nil` for a call that runs
        /// alone in its caller's task.
        let flight: Flight?
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
        /// Wait on this flight; start it first when `isNew`.
        case fly(Flight, isNew: Bool)
        /// An identical call is in flight and the policy refuses this one.
        case refused
    }

    /// Registers call `id`, which runs alone in its caller's task (no identical call may join it).
    func admitAlone(_ id: RequestID, control: CallControl, serviceID: ServiceID, tags: Set<RequestTag>, account: String?) {
        state.withLock { state in
            state.calls[id] = Call(
                serviceID: serviceID,
                tags: tags,
                account: account,
                order: state.nextOrder,
                control: control,
                flight: nil
            )
            state.nextOrder += 1
        }
    }

    /// Registers call `id` under the same-request `action` for `key`, atomically with the check.
    /// Identical calls it supersedes are marked cancelled and forgotten at once.
    func admit(
        _ id: RequestID,
        key: String,
        action: SameRequestPolicy.Action,
        control: CallControl,
        serviceID: ServiceID,
        tags: Set<RequestTag>,
        account: String?,
        make: () -> Flight
    ) -> Admission {
        let (admission, pending) = state.withLock { state -> (Admission, [CallControl.PendingHandlers]) in
            // An abandoned flight (its last waiter left, its task is being cancelled) counts as none.
            let running = state.flights[key].flatMap { $0.isAbandoned ? nil : $0 }
            var pending: [CallControl.PendingHandlers] = []
            let flight: Flight
            var isNew = true
            switch (action, running) {
            case (.refuseNew, .some):
                return (.refused, [])
            case (.coalesce, .some(let existing)) where existing.join(id):
                flight = existing
                isNew = false
            case (.cancelPrevious, .some):
                let superseded = state.calls.filter { $0.value.flight?.key == key }
                for (previous, call) in superseded {
                    state.calls[previous] = nil
                    if let handlers = call.control.mark(.cancelled("a newer identical call replaced it")) { pending.append(handlers) }
                }
                flight = make()
            default:
                flight = make()
            }
            if isNew {
                state.flights[key] = flight
                _ = flight.join(id)  // a new flight always admits its first waiter
            }
            state.calls[id] = Call(
                serviceID: serviceID,
                tags: tags,
                account: account,
                order: state.nextOrder,
                control: control,
                flight: flight
            )
            state.nextOrder += 1
            return (.fly(flight, isNew: isNew), pending)
        }
        for handlers in pending { handlers.run() }
        return admission
    }

    /// Forgets a call that has ended; `false` when a cancellation had already taken it, in which case
    /// the call must end cancelled whatever its pipeline produced.
    func remove(_ id: RequestID) -> Bool {
        // By index: the call's entry is dropped in place, not handed out as an optional to destroy.
        state.withLock { state in
            guard let index = state.calls.index(forKey: id) else { return false }
            state.calls.remove(at: index)
            return true
        }
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
    func cancel(_ reason: CallControl.Reason, where select: ([(RequestID, Call)]) -> [RequestID]) -> [RequestID] {
        let (chosen, handles) = state.withLock { state -> ([(RequestID, CallControl.PendingHandlers?)], [@Sendable () -> Void]) in
            let ordered = state.calls.sorted { $0.value.order < $1.value.order }.map { ($0.key, $0.value) }
            // A cancelled call is no longer in flight, even before its task has noticed; it is marked
            // in the same critical section, so it cannot end any other way — nor can its handle.
            let chosen = select(ordered).compactMap { id in state.calls.removeValue(forKey: id).map { (id, $0.control.mark(reason)) } }
            return (chosen, chosen.compactMap { state.handles.removeValue(forKey: $0.0) })
        }
        for (_, handlers) in chosen { handlers?.run() }
        for cancel in handles { cancel() }
        return chosen.map(\.0)
    }

    /// Makes call `id` end with `reason`; `false` when it is not in flight (any more).
    @discardableResult
    func cancel(_ id: RequestID, _ reason: CallControl.Reason) -> Bool {
        let (taken, handle) = state.withLock { state -> (CallControl.PendingHandlers??, (@Sendable () -> Void)?) in
            guard let call = state.calls.removeValue(forKey: id) else { return (nil, nil) }
            return (.some(call.control.mark(reason)), state.handles.removeValue(forKey: id))
        }
        guard let taken else { return false }
        taken?.run()
        handle?()
        return true
    }

    /// Records how to cancel the handle of call `id` until ``unregister(_:)``.
    func register(_ id: RequestID, cancel: @escaping @Sendable () -> Void) {
        state.withLock { $0.handles[id] = cancel }
    }

    /// Forgets the handle of call `id`; `false` when a cancellation had already taken it, in which
    /// case the handle's call must end cancelled.
    func unregister(_ id: RequestID) -> Bool {
        state.withLock { $0.handles.removeValue(forKey: id) } != nil
    }

    /// Cancels the running handles among `ids` (every one when `nil`); returns their ids.
    @discardableResult
    func cancelHandles(_ ids: Set<RequestID>?) -> [RequestID] {
        let chosen = state.withLock { state in
            let chosen = state.handles.filter { ids?.contains($0.key) ?? true }
            for id in chosen.keys { state.handles[id] = nil }
            return chosen
        }
        for cancel in chosen.values { cancel() }
        return Array(chosen.keys)
    }

    /// The ids in flight, in start order.
    var inFlight: [RequestID] {
        state.withLock { state in state.calls.sorted { $0.value.order < $1.value.order }.map(\.key) }
    }
}

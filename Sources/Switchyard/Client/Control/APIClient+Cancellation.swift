extension APIClient {
    /// The ids of the calls in flight, oldest first.
    public var callsInFlight: [RequestID] { tracker.inFlight }

    /// Cancels the call with `id`; returns whether it was in flight. It ends with
    /// ``SwitchyardError/Code/cancelled``.
    @discardableResult
    public func cancel(_ id: RequestID) -> Bool {
        !tracker.cancel(.cancelled("cancelled by id")) { calls in calls.filter { $0.0 == id }.map(\.0) }.isEmpty
    }

    /// Cancels every call in flight carrying `tag`; returns their ids.
    @discardableResult
    public func cancel(tag: RequestTag) -> [RequestID] {
        tracker.cancel(.cancelled("cancelled by tag \(tag)")) { calls in calls.filter { $0.1.tags.contains(tag) }.map(\.0) }
    }

    /// Cancels every call in flight to `service`; returns their ids.
    @discardableResult
    public func cancelAll(of service: ServiceID) -> [RequestID] {
        tracker.cancel(.cancelled("every call to \(service) was cancelled")) { calls in calls.filter { $0.1.serviceID == service }.map(\.0)
        }
    }

    /// Cancels every call in flight to `service` made for `account` (``CallOptions/account``).
    @discardableResult
    func cancelCalls(of service: ServiceID, account: String) -> [RequestID] {
        tracker.cancel(.cancelled("the session of this call's account ended")) { calls in
            calls.filter { $0.1.serviceID == service && $0.1.account == account }.map(\.0)
        }
    }

    /// Cancels every call in flight; returns their ids.
    @discardableResult
    public func cancelAll() -> [RequestID] {
        tracker.cancel(.cancelled("every call was cancelled")) { calls in calls.map(\.0) }
    }

    /// Cancels the oldest call in flight; returns its id, or `nil` when none is.
    @discardableResult
    public func cancelFirst() -> RequestID? {
        tracker.cancel(.cancelled("cancelled as the first in flight")) { calls in calls.first.map { [$0.0] } ?? [] }.first
    }

    /// Cancels the newest call in flight; returns its id, or `nil` when none is.
    @discardableResult
    public func cancelLast() -> RequestID? {
        tracker.cancel(.cancelled("cancelled as the last in flight")) { calls in calls.last.map { [$0.0] } ?? [] }.first
    }
}

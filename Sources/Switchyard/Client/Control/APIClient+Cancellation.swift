extension APIClient {
    /// The ids of the calls in flight, oldest first.
    public var callsInFlight: [RequestID] { tracker.inFlight }

    /// Cancels the call with `id`; returns whether it was in flight. It ends with
    /// ``SwitchyardError/Code/cancelled``.
    ///
    /// A call started with a ``CallHandle`` counts as in flight from the moment ``start(_:options:)``
    /// returns, so its ``CallHandle/id`` cancels it even before it has reached the pipeline.
    @discardableResult
    public func cancel(_ id: RequestID) -> Bool {
        !cancel([id]).isEmpty
    }

    /// Cancels every call in flight whose id is in `ids` — the ids of a screen's handles, say — and
    /// no other; returns the ids that were in flight, in start order (those of handles that had
    /// not reached the pipeline yet last). Each ends with ``SwitchyardError/Code/cancelled``.
    ///
    /// ```swift
    /// let thumbnails = photos.map { client.start(GetThumbnail(id: $0.id)) }
    /// client.cancel(thumbnails.map(\.id))
    /// ```
    @discardableResult
    public func cancel(_ ids: some Sequence<RequestID>) -> [RequestID] {
        let wanted = Set(ids)
        guard !wanted.isEmpty else { return [] }
        let flying = tracker.cancel(.cancelled("cancelled by id")) { calls in calls.filter { wanted.contains($0.0) }.map(\.0) }
        let handled = tracker.cancelHandles(wanted)
        return flying + handled.filter { !flying.contains($0) }.sorted { $0.rawValue < $1.rawValue }
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

    /// Cancels every call in flight, and every call started with a ``CallHandle`` that has not
    /// reached the pipeline yet; returns their ids.
    @discardableResult
    public func cancelAll() -> [RequestID] {
        let flying = tracker.cancel(.cancelled("every call was cancelled")) { calls in calls.map(\.0) }
        let handled = tracker.cancelHandles(nil)
        return flying + handled.filter { !flying.contains($0) }.sorted { $0.rawValue < $1.rawValue }
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

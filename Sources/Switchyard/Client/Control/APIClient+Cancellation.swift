extension APIClient {
    /// The ids of the calls in flight, oldest first.
    public var callsInFlight: [RequestID] { tracker.inFlight }

    /// Cancels the calls in flight that `selection` names; returns their ids, in start order (those
    /// of handles that had not reached the pipeline yet last). Each ends with
    /// ``SwitchyardError/Code/cancelled``.
    ///
    /// A call started with a ``CallHandle`` counts as in flight from the moment ``start(_:options:)``
    /// returns, so its ``CallHandle/id`` cancels it even before it has reached the pipeline.
    ///
    /// ```swift
    /// let thumbnails = photos.map { client.start(GetThumbnail(id: $0.id)) }
    /// client.cancel(.ids(thumbnails.map(\.id)))
    /// ```
    @discardableResult
    public func cancel(_ selection: CallSelection) -> [RequestID] {
        switch selection.kind {
        case .ids(let wanted):
            guard !wanted.isEmpty else { return [] }
            let flying = tracker.cancel(.cancelled("cancelled by id")) { calls in calls.filter { wanted.contains($0.0) }.map(\.0) }
            return flying + Self.notYetFlying(tracker.cancelHandles(wanted), besides: flying)
        case .tag(let tag):
            return tracker.cancel(.cancelled("cancelled by tag \(tag)")) { calls in calls.filter { $0.1.tags.contains(tag) }.map(\.0) }
        case .service(let service):
            return tracker.cancel(.cancelled("every call to \(service) was cancelled")) { calls in
                calls.filter { $0.1.serviceID == service }.map(\.0)
            }
        case .all:
            let flying = tracker.cancel(.cancelled("every call was cancelled")) { calls in calls.map(\.0) }
            return flying + Self.notYetFlying(tracker.cancelHandles(nil), besides: flying)
        case .oldest:
            return tracker.cancel(.cancelled("cancelled as the first in flight")) { calls in calls.first.map { [$0.0] } ?? [] }
        case .newest:
            return tracker.cancel(.cancelled("cancelled as the last in flight")) { calls in calls.last.map { [$0.0] } ?? [] }
        }
    }

    /// The handles' ids that were not among the calls in flight, in start order.
    private static func notYetFlying(_ handled: [RequestID], besides flying: [RequestID]) -> [RequestID] {
        handled.filter { !flying.contains($0) }.sorted { $0.rawValue < $1.rawValue }
    }

    /// Cancels every call in flight to `service` made for `account` (``CallOptions/account``).
    @discardableResult
    func cancelCalls(of service: ServiceID, account: String) -> [RequestID] {
        tracker.cancel(.cancelled("the session of this call's account ended")) { calls in
            calls.filter { $0.1.serviceID == service && $0.1.account == account }.map(\.0)
        }
    }
}

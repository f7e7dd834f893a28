import HTTPTypes

extension APIClient {
    /// Sends a streamed call and reads its answer as Server-Sent Events; with `reconnect`, the events
    /// go on across dropped connections, as the WHATWG HTML standard's `EventSource` does.
    ///
    /// The first connection is made before this returns: its errors (a refused status, a failed
    /// authentication) are thrown as ``send(_:options:)`` throws them, and the result carries its
    /// status and header fields. The events then arrive as the value, decoded as
    /// `serverSentEvents(maximumSize:)` decodes them.
    ///
    /// With a `reconnect` policy, when the connection ends — with a ``SwitchyardError/Code/transport``
    /// or ``SwitchyardError/Code/timeout`` error, or cleanly (the standard reconnects then too; a
    /// server that is done answers the reconnection with `204`) — the client waits and calls the
    /// endpoint again **through the pipeline**: a new call with a new request id, so request stages
    /// run again and a refreshed token is used. The reconnection sends `Last-Event-ID` (the last event
    /// ID the stream set, carried over as the standard says — only an ID the service's own origin set,
    /// never one from a foreign origin an allowed redirect reached, and only one of at most 1 KiB of
    /// UTF-8: a longer one is not kept, and the last that fit is sent instead) and waits the stream's last `retry`
    /// (at least the policy's ``RetryPolicy/baseDelay``, at most its ``RetryPolicy/maxDelay``), or
    /// else the policy's backoff with its jitter.
    /// At most ``RetryPolicy/maxAttempts`` − 1 reconnections follow one another without an event in
    /// between; an event resets the count. A `204` answer ends the events; another answer the call
    /// refuses (a `401` the pipeline could not refresh, a `500`) ends them with its typed error, as
    /// does the last failed reconnection. Any other error — a cancellation, an undecodable or too
    /// large event — ends them at once. Without `reconnect`, the events end with the connection.
    ///
    /// The result's ``CallResult/requestID`` names the event stream as a whole, not its first
    /// connection: `cancel(.id(events.requestID))` ends the events, whichever connection is open or
    /// while a reconnection waits. The stream is in flight under that id, with the call's tags, service
    /// and account, until its events end or every copy of it is gone, so cancelling by tag, service or
    /// all ends it too; each connection is also in flight under its own id (the one its log lines
    /// name), and cancelling a connection by that id ends the events as well — a cancellation is never
    /// reconnected. So does cancelling the task that reads the events, or leaving the loop early.
    ///
    /// ```swift
    /// let events = try await client.events(Prices(), reconnect: RetryPolicy(maxAttempts: 5))
    /// for try await event in events.value {
    ///     print(event.id ?? "", event.data)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: a streamed endpoint (its `Output` is ``ResponseStream``).
    ///   - options: adjustments for each connection, applied on top of the endpoint's own options.
    ///   - reconnect: when and how often to reconnect; `nil`, the default, never reconnects.
    ///   - maximumSize: the longest line, and the most data one event may gather, in bytes.
    ///   - sleep: waits before a reconnection; tests pass one that records the delays.
    /// - Returns: the events, with the first connection's metadata and the event stream's id.
    /// - Throws: ``SwitchyardError``: the first connection's.
    public func events<E: Endpoint>(
        _ endpoint: E,
        options: CallOptions? = nil,
        reconnect: RetryPolicy? = nil,
        maximumSize: Int = 1 << 20,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) async throws(SwitchyardError) -> CallResult<some AsyncSequence<ServerSentEvent, SwitchyardError> & Sendable>
    where E.Output == ResponseStream {
        let first = try await send(endpoint, options: options)
        let merged = options.map { CallSpec(endpoint).options.applying($0) } ?? CallSpec(endpoint).options
        let life = EventStream<E>.Life(tracker: tracker)
        tracker.admitAlone(life.id, control: life.control, serviceID: first.serviceID, tags: first.tags, account: merged.account)
        let events = EventStream(
            client: self,
            endpoint: endpoint,
            options: options,
            policy: reconnect,
            maximumSize: maximumSize,
            sleep: sleep,
            first: first.status == .noContent ? nil : first.value,
            firstOwnsEventIDs: EventStream<E>.ownsEventIDs(first),
            life: life
        )
        var result = first.map { _ in events }
        result.requestID = life.id
        return result
    }
}

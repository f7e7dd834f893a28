import HTTPTypes

extension CallOptions {
    /// ``waitsForConnectivity``: a later setting wins; it does not change what the server answers.
    enum WaitsForConnectivity: ClientOptionKey {
        typealias Value = Bool
        static let name = "waitsForConnectivity"
    }

    /// Whether a call made while the service cannot be reached waits for it instead of failing at
    /// once with ``SwitchyardError/Code/transport``: the call goes as soon as the client's
    /// ``Connectivity`` becomes reachable, and tries again at least every few seconds (each try is
    /// a probe: the call itself, or the service's ``ServiceDefaults/connectivityProbe`` when it has
    /// one), until it gets an answer — bounded by its ``deadline`` (it then fails with
    /// ``SwitchyardError/Code/timeout``).
    ///
    /// ```swift
    /// var options = CallOptions(deadline: .seconds(60))
    /// options.waitsForConnectivity = true
    /// let receipt = try await client.send(PlaceOrder(order), options: options)
    /// ```
    ///
    /// A waiting call stays in flight: cancelling it by id, tag, service, account or scope — or
    /// cancelling its task — ends it at once with ``SwitchyardError/Code/cancelled``.
    public var waitsForConnectivity: Bool {
        get { self[option: WaitsForConnectivity.self] ?? false }
        set { self[option: WaitsForConnectivity.self] = newValue ? true : nil }
    }
}

extension APIClient {
    /// The first wait between a waiting call's tries when nothing reports that connectivity returned.
    static let shortestConnectivityProbe = Duration.milliseconds(100)
    /// The longest wait between a waiting call's tries when nothing reports that connectivity returned.
    static let longestConnectivityProbe = Duration.seconds(5)

    /// Runs the call (``fly(_:spec:context:options:pipeline:)``); once the client's ``connectivity``
    /// is kept, telling it what the transport learned, and — for a call that waits for connectivity
    /// — waiting and trying again while connections fail. A plain call of a client whose signal
    /// nobody looks at pays one load and the option check.
    @inline(__always)
    nonisolated(nonsending) func flyNotingConnectivity(
        _ request: consuming Request,
        spec: CallSpec,
        context: CallContext,
        options: CallOptions,
        pipeline: Pipeline
    ) async throws(SwitchyardError) -> (Response, CallControl) {
        if !connectivity.isWatched, !options.sets(CallOptions.WaitsForConnectivity.self) {
            return try await fly(consume request, spec: spec, context: context, options: options, pipeline: pipeline)
        }
        return try await flyWatchingConnectivity(consume request, spec: spec, context: context, options: options, pipeline: pipeline)
    }

    /// The call under a kept signal: noted, and waiting while offline when it asks to.
    private nonisolated(nonsending) func flyWatchingConnectivity(
        _ request: consuming Request,
        spec: CallSpec,
        context: CallContext,
        options: CallOptions,
        pipeline: Pipeline
    ) async throws(SwitchyardError) -> (Response, CallControl) {
        guard options.waitsForConnectivity else {
            do {
                let flown = try await fly(consume request, spec: spec, context: context, options: options, pipeline: pipeline)
                connectivity.noteAnswer()
                return flown
            } catch {
                if error.code == .transport { connectivity.noteConnectionFailure() }
                throw error
            }
        }
        connectivity.watch()
        var wait = Self.shortestConnectivityProbe
        while true {
            if connectivity.peek == .unreachable {
                try await waitForConnectivity(context: context, options: options, upTo: wait)
                if connectivity.peek == .unreachable, let probed = await probe(context) {
                    if !probed {
                        wait = min(wait * 2, Self.longestConnectivityProbe)
                        continue
                    }
                    connectivity.noteAnswer()
                }
            }
            if let left = remaining(context), left <= .zero {
                throw SwitchyardError(code: .timeout, message: "the call's deadline passed while it waited for connectivity")
                    .filling(from: context)
            }
            do {
                let flown = try await fly(copy request, spec: spec, context: context, options: options, pipeline: pipeline)
                connectivity.noteAnswer()
                return flown
            } catch  where error.code == .transport {
                connectivity.noteConnectionFailure()
                wait = min(wait * 2, Self.longestConnectivityProbe)
            }
        }
    }

    /// Waits, in flight — so cancelling by id, tag, service, account or scope, the call's deadline
    /// and its task's cancellation all end the wait at once — until connectivity returns or
    /// `interval` (cut to the call's deadline) passes.
    ///
    /// - Throws: the cancellation's error (``SwitchyardError/Code/cancelled``, or
    ///   ``SwitchyardError/Code/timeout`` for the deadline).
    private func waitForConnectivity(context: CallContext, options: CallOptions, upTo interval: Duration) async throws(SwitchyardError) {
        let id = context.requestID
        let control = context.control
        tracker.admitAlone(id, control: control, serviceID: context.serviceID, tags: context.tags, account: context.account)
        let watch = watchCall(id, context: context, options: options)
        let connectivity = self.connectivity
        let wait = min(interval, remaining(context) ?? interval)
        // In a task the call's control cancels: the wait ends the moment the call is cancelled.
        _ = try? await control.runCancellable { await connectivity.waitWhileUnreachable(upTo: wait) }
        _ = tracker.remove(id)
        watch?.end()
        // Marked in the same critical section that took it out of flight, or earlier (by a probe's
        // cancel): either way the call ends as the cancellation said.
        if let cancelled = control.cancellationError { throw cancelled.filling(from: context) }
        if Task.isCancelled {
            throw SwitchyardError(code: .cancelled, message: "the call was cancelled while it waited for connectivity")
                .filling(from: context)
        }
    }

    /// Asks the service's ``ServiceDefaults/connectivityProbe`` — straight through its transport,
    /// with none of its stages — whether it can be reached: `true` for any answer, `false` when the
    /// connection fails; `nil` when the service has no probe.
    private func probe(_ context: CallContext) async -> Bool? {
        guard let resolution = try? registry.resolve(context.serviceID),
            let path = resolution.entry.service.defaults.connectivityProbe
        else { return nil }
        let base = resolution.baseURL
        let head = base.requestHead(method: .get, path: base.pathPrefix + (path.hasPrefix("/") ? path : "/" + path), headerFields: [:])
        let probeContext = CallContext(
            serviceID: context.serviceID,
            endpointName: "connectivity probe",
            timeout: Self.longestConnectivityProbe
        )
        do {
            _ = try await context.control.runCancellable {
                try await resolution.entry.service.transport.send(Request(head: head), context: probeContext)
            }
            return true
        } catch let error as SwitchyardError where error.code != .transport && error.code != .timeout && error.code != .cancelled {
            return true
        } catch {
            return false
        }
    }

    /// What is left of the call's deadline, if it has one.
    private func remaining(_ context: CallContext) -> Duration? {
        context.deadlineOffset.map { $0 - CallClock.now }
    }
}

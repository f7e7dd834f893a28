extension APIClient {
    /// Runs the pipeline for one call under the client's bookkeeping: registered in flight (so it
    /// can be cancelled by id, tag, service or scope), joined to or separated from identical calls
    /// by the same-request policy, and ended at its deadline.
    ///
    /// A call that identical calls may not join runs in its caller's task: no task is started and
    /// nothing waits on a continuation — unless it has a deadline, which must end it even inside a
    /// stage that ignores the call's control (see ``DeadlineRun``). Cancelling it marks its
    /// ``CallControl``, which the transport (or the task the pipeline runs a transport in) observes;
    /// the caller's task is never cancelled.
    /// A call the client reported cancelled ends cancelled, whatever its pipeline produced.
    ///
    /// - Returns: the response, and the control that ran the pipeline (whose counts and timings the
    ///   call reports).
    @inline(__always)
    nonisolated(nonsending) func fly(
        _ request: consuming Request,
        spec: CallSpec,
        context: CallContext,
        options: CallOptions,
        pipeline: Pipeline
    ) async throws(SwitchyardError) -> (Response, CallControl) {
        // A scope released before the call was admitted: the call never starts.
        if options.scopeWasReleased {
            throw CallControl.error(for: .cancelled("its request scope was released")).filling(from: context)
        }
        // A stream has one reader: a streamed call never shares its exchange.
        let policy = spec.streams ? .allow : options.sameRequest ?? .allow
        if policy.action == .allow {
            return (try await flyAlone(consume request, context: context, options: options, pipeline: pipeline), context.control)
        }
        return try await flyShared(request, spec: spec, context: context, options: options, pipeline: pipeline, policy: policy)
    }

    /// The default path: the pipeline runs in the caller's task.
    @inline(__always)
    private nonisolated(nonsending) func flyAlone(
        _ request: consuming Request,
        context: CallContext,
        options: CallOptions,
        pipeline: Pipeline
    ) async throws(SwitchyardError) -> Response {
        let id = context.requestID
        let control = context.control
        tracker.admitAlone(id, control: control, serviceID: context.serviceID, tags: context.tags, account: context.account)
        let watch = watchCall(id, context: context, options: options)
        let response: Response
        do throws(SwitchyardError) {
            // A scope released as the call was admitted: it ends cancelled without starting.
            if control.isCancelled, let cancelled = control.cancellationError { throw cancelled }
            if context.deadlineOffset == nil {
                response = try await pipeline.sendHere(consume request, context: context, additionalStages: options.additionalStages)
            } else {
                response = try await Self.sendUnderDeadline(request, context: context, stages: options.additionalStages, pipeline: pipeline)
            }
        } catch {
            try end(id, control: control, context: context, watch: watch)
            throw error
        }
        if let stream = response.body.stream {
            // A streamed answer keeps its scope until the stream ends; its deadline covered the head.
            defer { watch?.endDeadline() }
            return try stayInFlight(id, response: response, stream: stream, control: control, context: context, watch: watch)
        }
        try end(id, control: control, context: context, watch: watch)
        return response
    }

    /// A call with a deadline runs its pipeline in a task of its own (see ``DeadlineRun``): its
    /// deadline — or any cancel — ends it on time even while a stage awaits work that observes
    /// neither the call's control nor task cancellation. The caller's task is never cancelled.
    private static func sendUnderDeadline(
        _ request: Request,
        context: CallContext,
        stages: [any Stage],
        pipeline: Pipeline
    ) async throws(SwitchyardError) -> Response {
        do {
            return try await DeadlineRun.run(control: context.control) {
                try await pipeline.send(request, context: context, additionalStages: stages)
            }
        } catch {
            throw SwitchyardError.wrapping(error).filling(from: context)
        }
    }

    /// Takes a finished call out of flight; the cancellation's error when a cancellation took it first
    /// (the call then ends as the cancellation said, whatever its pipeline produced).
    /// A streamed answer: the call stays in flight — cancellable by id, tag, service, scope and all —
    /// until its stream ends; its deadline covered the head only.
    private func stayInFlight(
        _ id: RequestID,
        response: Response,
        stream: ResponseStream,
        control: CallControl,
        context: CallContext,
        watch: CallWatch?
    ) throws(SwitchyardError) -> Response {
        if let cancelled = control.cancellationError {
            stream.cancel(cancelled)
            _ = tracker.remove(id)
            watch?.endScope()
            throw cancelled.filling(from: context)
        }
        let tracker = self.tracker
        var response = response
        response.body = .stream(
            stream.onEnd { _ in
                _ = tracker.remove(id)
                watch?.endScope()
            }
        )
        return response
    }

    /// Ends a call that ran alone: out of flight first, then unwatched, as a call always ends (a
    /// cancel in between finds it gone). Throws the cancellation's error when a cancellation took
    /// the call first: it then ends as the cancellation said, whatever its pipeline produced.
    @inline(__always)
    private func end(_ id: RequestID, control: CallControl, context: CallContext, watch: CallWatch?) throws(SwitchyardError) {
        let removed = tracker.remove(id)
        watch?.end()
        if !removed, let cancelled = control.cancellationError { throw cancelled.filling(from: context) }
    }

    /// Calls identical calls may join, refuse or replace: the pipeline runs once, in a task of its
    /// own, and each call waits for its answer.
    private func flyShared(
        _ request: Request,
        spec: CallSpec,
        context: CallContext,
        options: CallOptions,
        pipeline: Pipeline,
        policy: SameRequestPolicy
    ) async throws(SwitchyardError) -> (Response, CallControl) {
        let id = context.requestID
        // Whose call it is counts: calls made with different credentials — carried now or added by
        // the service's credential stages — never share one exchange.
        let prediction: CredentialPrediction
        do {
            prediction = try await CredentialPrediction(request, context: context, digest: .process)
        } catch {
            throw SwitchyardError.wrapping(error, as: .authentication).filling(from: context)
        }
        let key = RequestIdentity.key(
            spec: spec,
            request: request,
            context: context,
            options: options,
            partition: prediction.partition,
            volatile: policy.volatileParameters
        )
        // The run is shared, so it answers to none of its callers' controls: each caller leaves it
        // on its own, and the run is cancelled when the last one has left.
        var shared = context
        let tracer = context.control.timings?.tracer
        shared.control = CallControl(
            recordsTimings: context.control.timings != nil,
            trace: tracer?.detail,
            redaction: tracer?.redaction ?? .default,
            keepsReceivedBody: context.control.keepsReceivedBody
        )
        let runContext = shared
        let admission = tracker.admit(
            id,
            key: key,
            action: policy.action,
            control: context.control,
            serviceID: context.serviceID,
            tags: context.tags,
            account: context.account
        ) {
            Flight(key: key)
        }
        guard case .fly(let flight, let isNew) = admission else {
            throw SwitchyardError(code: .refused, message: "an identical call is already in flight, and this endpoint refuses duplicates")
                .filling(from: context)
        }
        if isNew {
            let tracker = self.tracker
            let stages = options.additionalStages
            flight.start(
                { () async throws(SwitchyardError) -> Response in
                    // What the run sends is checked against the identity it was joined under: a
                    // credential a stage added that the identity does not account for keeps its
                    // answer from the callers that joined it.
                    if prediction.checksSent { runContext.control.watchSentRequests() }
                    defer { if !prediction.covers(runContext.control.sentRequests) { flight.markUnshareable() } }
                    return try await pipeline.send(request, context: runContext, additionalStages: stages)
                },
                finished: { tracker.finish(flight) }
            )
        }
        let watch = watchCall(id, context: context, options: options)
        defer { watch?.end() }
        let control = context.control
        let outcome: Result<Response, any Error>
        do {
            var response = try await control.withCancellationHandler {
                try await flight.wait(id)
            } onCancel: {
                flight.leave(id, control.reason ?? .cancelled("the caller's task was cancelled"))
            }
            if !isNew { response.source = .shared }
            outcome = .success(response)
        } catch {
            outcome = .failure(error)
        }
        if !tracker.remove(id), let cancelled = control.cancellationError {
            throw cancelled.filling(from: context)
        }
        if !isNew, !flight.isShareable {
            // The run carried credentials of its first caller's that this caller's identity did not
            // show (a stage added them): neither its answer nor its error is this caller's. It sends
            // its own request instead.
            return (try await flyAlone(request, context: context, options: options, pipeline: pipeline), control)
        }
        switch outcome {
        case .success(let response): return (response, isNew ? runContext.control : control)
        case .failure(let error as SwitchyardError): throw error.filling(from: context)
        case .failure(let error): throw SwitchyardError.wrapping(error).filling(from: context)
        }
    }

    /// Links a call to its scope and its deadline until ``CallWatch/end()``; `nil` for a call with
    /// neither, which most calls are: nothing then watches it.
    func watchCall(_ id: RequestID, context: CallContext, options: CallOptions) -> CallWatch? {
        guard options.namesScope || context.deadlineOffset != nil else { return nil }
        let tracker = self.tracker
        // Only a weak reference is kept across the call: releasing the scope must be able to end it.
        // Most calls have no scope: they keep no weak reference at all. A scope released since the
        // call's start was checked cancels the call here, before its pipeline runs.
        let scope = options.scope.map { scope in
            scope.add(id) { tracker.cancel(id, .cancelled("its request scope was released")) }
            return WeakScope(scope: scope)
        }
        if scope == nil, options.scopeWasReleased { tracker.cancel(id, .cancelled("its request scope was released")) }
        // The call's deadline is one entry of the kernel's deadline timer, not a task of its own.
        let deadline = context.deadlineOffset.map { due in DeadlineTimer.shared.watch(until: due) { tracker.cancel(id, .deadline) } }
        return CallWatch(id: id, scope: scope, deadline: deadline)
    }
}

/// What watches a call in flight besides the tracker: its scope and its deadline.
struct CallWatch: Sendable {
    let id: RequestID
    let scope: WeakScope?
    /// The call's watch on ``DeadlineTimer/shared``.
    let deadline: UInt64?

    func end() {
        endDeadline()
        endScope()
    }

    /// Stops watching the deadline.
    func endDeadline() {
        if let deadline { DeadlineTimer.shared.end(deadline) }
    }

    /// Leaves the scope.
    func endScope() {
        scope?.scope?.remove(id)
    }
}

extension APIClient {
    /// Runs the pipeline for one call under the client's bookkeeping: registered in flight (so it
    /// can be cancelled by id, tag, service or scope), joined to or separated from identical calls
    /// by the same-request policy, and ended at its deadline.
    func fly(
        _ request: Request,
        spec: CallSpec,
        context: CallContext,
        options: CallOptions,
        pipeline: Pipeline
    ) async throws(SwitchyardError) -> Response {
        let id = context.requestID
        let policy = options.sameRequest ?? .allow
        var key: String?
        if policy.action != .allow {
            // Whose call it is counts: calls made with different credentials — carried now or added by
            // the service's credential stages — never share one exchange.
            let partition: CredentialPartition
            do {
                partition = try await CredentialPartition.of(request, context: context)
            } catch {
                throw SwitchyardError.wrapping(error, as: .authentication).filling(from: context)
            }
            key = RequestIdentity.key(
                spec: spec,
                request: request,
                context: context,
                options: options,
                partition: partition,
                volatile: policy.volatileParameters
            )
        }
        let admission = tracker.admit(
            id,
            key: key,
            action: policy.action,
            serviceID: context.serviceID,
            tags: context.tags,
            account: context.account
        ) {
            Flight(key: key)
        }
        guard case .fly(let flight, let isNew, let superseded) = admission else {
            throw SwitchyardError(code: .refused, message: "an identical call is already in flight, and this endpoint refuses duplicates")
                .filling(from: context)
        }
        for (previous, previousFlight) in superseded { previousFlight.leave(previous, .cancelled("a newer identical call replaced it")) }
        if isNew {
            let tracker = self.tracker
            let stages = options.additionalStages
            flight.start(
                { () async throws(SwitchyardError) -> Response in
                    try await pipeline.send(request, context: context, additionalStages: stages)
                },
                finished: { tracker.finish(flight) }
            )
        }
        // Only a weak reference is kept across the call: releasing the scope must be able to end it.
        let scope = WeakScope(scope: options.scope)
        scope.scope?.add(id) { flight.leave(id, .cancelled("its request scope was released")) }
        let timer = context.deadline.map { deadline in
            Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                if !Task.isCancelled { flight.leave(id, .deadline) }
            }
        }
        defer {
            timer?.cancel()
            scope.scope?.remove(id)
            tracker.remove(id)
        }
        do {
            var response = try await flight.wait(id)
            if !isNew { response.source = .shared }
            return response
        } catch let error as SwitchyardError {
            throw error.filling(from: context)
        } catch {
            throw SwitchyardError.wrapping(error).filling(from: context)
        }
    }
}

/// What an opt-in product that keeps a connection open beside the calls (`SwitchyardChannels`) needs
/// from the client, at `package` level: the upgrade request sent as a call through the service's
/// stages, and the open connection tracked like a call so that cancellation reaches it.
extension APIClient {
    /// Sends `endpoint` through its service's stages, with `transport` in place of the service's own
    /// at the end: every request stage runs (authorization with refresh, common parameters, signing,
    /// logging), the response stages see the answer `transport` returns, and the status is checked
    /// against the call's acceptable codes as for any call. The call is in flight, cancellable and
    /// bounded by its deadline, until the answer returns.
    package nonisolated(nonsending) func upgrade<E: Endpoint>(
        _ endpoint: E,
        options: CallOptions?,
        through transport: any Transport
    ) async throws(SwitchyardError) -> CallResult<Void> {
        let exchange = try await perform(CallSpec(endpoint), options: options, transport: transport)
        return exchange.result(())
    }

    /// The account `endpoint`'s calls are made for, with `options` applied: what cancelling by account
    /// and ending a session match.
    package func account<E: Endpoint>(of endpoint: E, options: CallOptions?) -> String? {
        let own = CallSpec(endpoint).options
        return (options.map { own.applying($0) } ?? own).account
    }

    /// Puts a long-lived connection among the calls in flight under `id`: cancelling by id, tag,
    /// service, account or scope, and ending the account's session, cancel `control`.
    package func track(_ id: RequestID, control: CallControl, serviceID: ServiceID, tags: Set<RequestTag>, account: String?) {
        tracker.admitAlone(id, control: control, serviceID: serviceID, tags: tags, account: account)
    }

    /// Takes the connection `track(_:control:serviceID:tags:account:)` put in flight out of it.
    package func untrack(_ id: RequestID) {
        _ = tracker.remove(id)
    }
}

extension ServiceRegistry.Entry {
    /// The service's stages folded around `transport`, sharing the service's state (its sessions) with
    /// its calls; no redirect is followed.
    func upgradePipeline(ending transport: any Transport) -> Pipeline {
        let state = pipeline.serviceState
        return Pipeline(serviceID: service.id, stages: service.stages, transport: transport, follower: nil, serviceState: { _ in state })
    }
}

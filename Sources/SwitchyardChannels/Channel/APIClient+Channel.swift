public import Switchyard
import SwitchyardAsyncHTTPClient

extension APIClient {
    /// Opens a WebSocket channel to `endpoint` through its service's pipeline.
    ///
    /// The upgrade request is an ordinary call of the endpoint (`GET`, its path and parameters, the
    /// service's base URL with `http` read as `ws` and `https` as `wss`): every request stage runs —
    /// authorization (a `401` refreshed and retried as for any call), common parameters, header
    /// fields, signing, logging, encryption — the response stages see the `101` head, and the call's
    /// timeout and deadline bound the handshake. A refused upgrade (`401`, `403`, `426`…) throws the
    /// usual `SwitchyardError.Code.httpStatus` error carrying the answer. The endpoint's
    /// `Output` is not decoded.
    ///
    /// When the service has an encryption stage (`EncryptionStage`, headers
    /// framing, an authenticated scheme, wire format 2) that sealed the upgrade request, every
    /// message is sealed both ways with its scheme and the key the request named.
    ///
    /// ```swift
    /// let channel = try await client.channel(Chat(room: 7), configuration: ChannelConfiguration(reconnect: RetryPolicy(maxAttempts: 5)))
    /// try await channel.send(.text("hello"))
    /// for try await message in channel.messages { … }
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: the channel's endpoint.
    ///   - options: adjustments for the upgrade call (and each reconnection), applied on top of the
    ///     endpoint's own options; its tags, account and scope are the channel's.
    ///   - configuration: limits, heartbeat and reconnection.
    /// - Returns: the open channel.
    /// - Throws: `SwitchyardError`: the upgrade call's.
    public func channel<E: Endpoint>(
        _ endpoint: E,
        options: CallOptions? = nil,
        configuration: ChannelConfiguration = ChannelConfiguration()
    ) async throws(SwitchyardError) -> Channel {
        var adjusted = options ?? CallOptions()
        adjusted.acceptableStatusCodes = 101...101
        let upgradeOptions = adjusted
        let (upgrade, connection, sealer) = try await openConnection(endpoint, options: upgradeOptions, configuration: configuration)
        let client = self
        let channel = Channel(
            client: self,
            upgrade: upgrade,
            connection: connection,
            sealer: sealer,
            configuration: configuration,
            logger: options?.logger ?? logger
        ) { (_: Channel) async throws(SwitchyardError) -> (Connection, ChannelSealer?) in
            var again = upgradeOptions
            again.tags = upgrade.tags
            let (_, connection, sealer) = try await client.openConnection(endpoint, options: again, configuration: configuration)
            return (connection, sealer)
        }
        channel.start(tags: upgrade.tags, account: account(of: endpoint, options: options))
        return channel
    }

    /// One upgrade call through the pipeline, and the connection it opened with its sealer.
    private func openConnection<E: Endpoint>(
        _ endpoint: E,
        options: CallOptions,
        configuration: ChannelConfiguration
    ) async throws(SwitchyardError) -> (CallResult<Void>, Connection, ChannelSealer?) {
        // A pinned service's channels are held to its transport's pins.
        let pinning = (try? registry.service(for: endpoint.service).transport as? AsyncHTTPClientTransport)?.pinning
        let connector = WebSocketConnector(configuration: configuration, pinning: pinning)
        let upgrade: CallResult<Void>
        do {
            upgrade = try await self.upgrade(endpoint, options: options, through: connector)
        } catch {
            connector.take()?.connection.discard()
            throw error
        }
        guard let opened = connector.take() else {
            throw SwitchyardError(code: .invalidResponse, message: "the channel's upgrade answered 101 without a connection")
        }
        let (connection, request) = (opened.connection, opened.request)
        do {
            let stages = try registry.pipeline(for: upgrade.serviceID).stages
            return (upgrade, connection, try ChannelSealer.make(for: request, stages: stages))
        } catch {
            connection.discard()
            throw error
        }
    }
}

public import HTTPTypes

extension APIClient {
    /// Calls an endpoint and turns its response into the reformer's output instead of the endpoint's
    /// own (see ``Reformer``).
    ///
    /// - Throws: what ``send(_:options:)`` throws; a reformer's failure becomes
    ///   ``SwitchyardError/Code/decoding`` with the response's status and body.
    public func send<E: Endpoint, R: Reformer>(
        _ endpoint: E,
        reformer: R,
        options: CallOptions? = nil
    ) async throws(SwitchyardError) -> CallResult<R.Output> {
        try await reformed(CallSpec(endpoint), reformer: reformer, options: options)
    }

    /// Calls a service by method and path and reforms the response (see ``Reformer``).
    public func send<R: Reformer>(
        _ service: ServiceID,
        _ method: HTTPRequest.Method,
        _ path: String,
        pathParameters: [String: String] = [:],
        parameters: Parameters = [:],
        headerFields: HTTPFields = [:],
        encoding: ParameterEncoding? = nil,
        options: CallOptions? = nil,
        reformer: R
    ) async throws(SwitchyardError) -> CallResult<R.Output> {
        let endpoint = DynamicEndpoint<Response>(
            service: service,
            method: method,
            path: path,
            pathParameters: pathParameters,
            parameters: parameters,
            headerFields: headerFields,
            encoding: encoding
        )
        return try await reformed(CallSpec(endpoint), reformer: reformer, options: options)
    }

    @concurrent private func reformed<R: Reformer>(
        _ spec: CallSpec,
        reformer: R,
        options: CallOptions?
    ) async throws(SwitchyardError) -> CallResult<R.Output> {
        let exchange = try await perform(spec, options: options)
        let response = exchange.response
        let context = ReformContext(
            requestID: exchange.context.requestID,
            serviceID: exchange.context.serviceID,
            endpointName: exchange.context.endpointName,
            decoder: exchange.decoder
        )
        let value: R.Output
        do {
            value = try reformer.reform(response, context: context)
        } catch {
            var failure = DecodingFailureMessage.error(for: error, output: R.Output.self, response: response)
            failure.stage = failure.stage ?? StageID(typeName: R.self)
            throw failure.filling(from: exchange.context)
        }
        return exchange.result(value)
    }
}

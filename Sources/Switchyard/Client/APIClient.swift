import Foundation
public import HTTPTypes
public import Logging

/// Sends calls through the pipelines of a ``ServiceRegistry``.
///
/// Both styles ride on the same machinery: the *discrete* style sends an ``Endpoint`` value, the
/// *intensive* style names the service, method and path at the call site.
///
/// ```swift
/// let client = APIClient(registry: registry)
///
/// // Discrete: one type per API, typed output.
/// let user = try await client.send(GetUser(id: 7)).value
///
/// // Intensive: one entry point.
/// let page = try await client.send(.catalog, .get, "/articles", parameters: ["page": 2])
/// print(page.status, page.value.bodyText)
/// ```
///
/// A call: resolves the service and the current environment's base URL, builds the request
/// (path template, parameters, header fields), sends it through the service's pipeline, checks
/// the status against the acceptable codes, and decodes the output. Every failure is a
/// ``SwitchyardError`` carrying the service, endpoint, request id and failing stage.
public struct APIClient: Sendable {
    /// The registry whose services this client calls.
    public let registry: ServiceRegistry
    /// The logger handed to stages through ``CallContext/logger``.
    public var logger: Logger
    /// The `User-Agent` put on calls that carry none (a service, endpoint or call field wins); `nil`
    /// sends none.
    public var userAgent: UserAgent?
    /// The calls in flight, shared by every copy of this client.
    let tracker = CallTracker()
    /// Whether the client's services can be reached, shared by every copy of this client: what
    /// calls that wait for connectivity wait on, observable for an app's UI.
    public let connectivity = Connectivity()

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - registry: the registry of services.
    ///   - logger: the logger for stages; discards everything by default.
    ///   - userAgent: the `User-Agent` for calls that carry none; ``UserAgent/default`` unless given.
    public init(registry: ServiceRegistry, logger: Logger = CallContext.disabledLogger, userAgent: UserAgent? = .default) {
        self.registry = registry
        self.logger = logger
        self.userAgent = userAgent
    }

    /// Sends a call described by an endpoint.
    ///
    /// - Parameters:
    ///   - endpoint: what to call.
    ///   - options: adjustments for this call, applied on top of the endpoint's own options.
    /// - Returns: the decoded output with the call's metadata.
    /// - Throws: ``SwitchyardError``.
    @concurrent public func send<E: Endpoint>(
        _ endpoint: E,
        options: CallOptions? = nil
    ) async throws(SwitchyardError) -> CallResult<E.Output> {
        try await call(endpoint, options: options, requestID: .next())
    }

    /// Every call form's way in (``send(_:options:)``, a handle's): an endpoint whose output is a
    /// ``DownloadedFile`` through `sendDownload`, any other through `send`. The metadata compare
    /// comes first, so an ordinary call never pays for a cast; inlined, so it adds no frame.
    @inline(__always)
    nonisolated(nonsending) func call<E: Endpoint>(
        _ endpoint: E,
        options: CallOptions?,
        requestID: RequestID
    ) async throws(SwitchyardError) -> CallResult<E.Output> {
        if E.Output.self == DownloadedFile.self {
            return try await sendDownload(endpoint, options: options, requestID: requestID)
        }
        return try await send(endpoint, options: options, requestID: requestID)
    }

    /// Sends a call under an id chosen before it starts; callers go through ``call(_:options:requestID:)``,
    /// which sends an endpoint whose output is a ``DownloadedFile`` through `sendDownload` instead.
    nonisolated(nonsending) func send<E: Endpoint>(
        _ endpoint: E,
        options: CallOptions?,
        requestID: RequestID
    ) async throws(SwitchyardError) -> CallResult<E.Output> {
        // Only reading the endpoint and decoding depend on its type; the rest is shared, non-generic code.
        // A reformed endpoint streams as the endpoint it reforms does (a witness read, no cast).
        let reformsStream = E._reformsStream
        var spec = CallSpec(endpoint)
        if let reformsStream { spec.streams = reformsStream }
        let exchange = try await perform(spec, options: options, requestID: requestID)
        return try Self.result(of: endpoint, consume exchange, reformed: reformsStream != nil)
    }

    /// The endpoint's output decoded from the exchange, with the call's metadata: a reformed
    /// endpoint's from a copy of the response that carries the call's id, for its reformer's context.
    /// A synchronous function of its own: the output's values, of a size only known at run time, live
    /// on the stack instead of in the calling task's frame.
    @inline(never)
    static func result<E: Endpoint>(
        of endpoint: E,
        _ exchange: consuming Exchange,
        reformed: Bool
    ) throws(SwitchyardError) -> CallResult<E.Output> {
        let value: E.Output
        do {
            if reformed {
                value = try decodeReformed(endpoint, exchange.response, requestID: exchange.context.requestID, decoder: exchange.decoder)
            } else {
                // The response is lent to the decoder, not copied out of the exchange first.
                value = try endpoint.decode(exchange.response, decoder: exchange.decoder)
            }
        } catch {
            throw DecodingFailureMessage.error(for: error, output: E.Output.self, response: exchange.response)
                .filling(from: exchange.context).traced(by: exchange.control)
        }
        // The decoded value is moved into the result, not copied.
        return exchange.result(consume value)
    }

    /// What a call produced before decoding.
    struct Exchange {
        /// The response; a download's loop replaces its body with the published file.
        var response: Response
        /// The response's status, read once.
        let status: HTTPResponse.Status
        let context: CallContext
        /// The control that ran the pipeline: the call's own, or a shared run's.
        let control: CallControl
        let decoder: JSONDecoder
        /// When the call started, on ``CallClock``.
        let start: Duration

        /// The call's result carrying `value`, with the response's and the call's metadata. The
        /// exchange is consumed, so its response's fields are handed to the result, not copied.
        consuming func result<Value>(_ value: consuming Value) -> CallResult<Value> {
            // The call's duration ends here, before the timings are logged.
            let duration = CallClock.now - start
            var metadata = response.metadata
            if let recorder = control.timings {
                let timings = recorder.timings
                metadata[StageTimings.self] = timings
                if recorder.isRequested {
                    context.logger.trace("\(timings.line)", metadata: ["request-id": "\(context.requestID)"])
                }
                if let tracer = recorder.tracer { metadata[PipelineTrace.self] = tracer.trace() }
            }
            // Every field in one initialization, straight into the caller's result: none is written
            // twice, and no result of the generic type is held here.
            return CallResult(
                value: value,
                status: status,
                headerFields: response.head.headerFields,
                requestID: context.requestID,
                endpointName: context.endpointName,
                tags: context.tags,
                sentRequest: control.lastSentRequest,
                rawBody: control.keepsReceivedBody ? control.receivedBody?.bytes : nil,
                serviceID: context.serviceID,
                environment: context.environment,
                attempts: control.transportSends,
                duration: duration,
                source: response.source,
                redirectCount: response.redirectCount,
                finalURL: response.url,
                metadata: metadata
            )
        }
    }

    /// Resolves the service, builds the request, runs the pipeline and checks the status.
    nonisolated(nonsending) func perform(
        _ spec: CallSpec,
        options: CallOptions?,
        requestID: RequestID = .next(),
        transport: (any Transport)? = nil
    ) async throws(SwitchyardError) -> Exchange {
        let start = CallClock.now
        let resolution: ServiceRegistry.Resolution
        do {
            resolution = try registry.resolve(spec.service)
        } catch {
            throw error.with(requestID: requestID, endpoint: spec.name)
        }
        let entry = resolution.entry
        // A channel's upgrade runs the service's stages around a transport of its own.
        let pipeline = transport.map { entry.upgradePipeline(ending: $0) } ?? entry.pipeline
        let callOptions = options.map { spec.options.applying($0) } ?? spec.options
        do {
            try entry.pipeline.check(callOptions)
        } catch {
            throw error.with(requestID: requestID, endpoint: spec.name).filling(service: entry.service.id)
        }
        let encoding =
            spec.encoding?.resolved(for: spec.method) ?? entry.service.defaults.parameterEncoding.resolvedAsDefault(for: spec.method)

        let keepsRawBody = callOptions.keepsRawBody ?? entry.service.defaults.keepsRawBody
        let recordsTimings = callOptions.recordsStageTimings
        let trace = callOptions.trace ?? entry.service.defaults.trace
        var context = CallContext(
            requestID: requestID,
            serviceID: entry.service.id,
            endpointName: spec.name,
            tags: callOptions.tags,
            environment: resolution.environment,
            timeout: callOptions.timeout ?? entry.service.defaults.timeout,
            deadlineOffset: (callOptions.deadline ?? entry.service.defaults.deadline).map { start + $0 },
            parameterEncoding: encoding,
            skippedStages: callOptions.skippedStages,
            enabledStages: callOptions.enabledStages,
            logger: callOptions.logger ?? logger,
            serviceState: entry.pipeline.serviceState,
            control: recordsTimings || keepsRawBody || trace != nil
                ? Self.control(recordsTimings: recordsTimings, trace: trace, keepsRawBody: keepsRawBody, pipeline: entry.pipeline)
                : CallControl()
        )
        if let account = callOptions.account { context.account = account }
        callOptions.writeValues(into: &context)
        if spec.streams {
            if context.streamBufferLimit == nil { context.streamBufferLimit = ResponseStream.defaultBufferLimit }
        } else if callOptions.setsContextValues, context.streamBufferLimit != nil {
            // Only an endpoint whose output is a stream can read one: any other call collects its body.
            context.streamBufferLimit = nil
        }

        let request: Request
        do {
            request = try RequestBuilder.build(
                spec,
                baseURL: resolution.baseURL,
                defaults: entry.service.defaults,
                encoder: entry.encoder,
                callHeaderFields: callOptions.headerFields,
                userAgent: userAgent,
                encoding: encoding,
                // Room for two fields a stage: a signing stage alone adds four.
                expectedStageFields: min(2 * (entry.pipeline.stageIDs.count + callOptions.additionalStages.count) + 2, 32)
            )
        } catch {
            throw error.filling(from: context)
        }
        // Only an absolute URL in the path (it starts with `http`) can leave the service's origin.
        let first = spec.path.utf8.first
        if first == UInt8(ascii: "h") || first == UInt8(ascii: "H"),
            request.head.scheme != resolution.baseURL.scheme || request.head.authority != resolution.baseURL.authority
        {
            do {
                try Self.admitForeignOrigin(request, base: resolution.baseURL, allowed: callOptions.allowsForeignOrigin)
            } catch {
                throw error.filling(from: context)
            }
            context.isForeignOrigin = true
        }
        if Task.isCancelled {
            throw SwitchyardError(code: .cancelled, message: "The call was cancelled before it was sent.").filling(from: context)
        }

        let (response, control): (Response, CallControl)
        do {
            (response, control) = try await flyNotingConnectivity(
                consume request,
                spec: spec,
                context: context,
                options: callOptions,
                pipeline: pipeline
            )
        } catch {
            throw error.traced(by: context.control)
        }

        let acceptable = callOptions.acceptableStatusCodes ?? entry.service.defaults.acceptableStatusCodes
        // Read once: HTTPTypes parses the status from its pseudo-header field on every read.
        let status = response.head.status
        let code = status.code
        guard code >= acceptable.lowerBound, code <= acceptable.upperBound else {
            var response = response
            if let stream = response.body.stream {
                // A refused answer's stream is not the caller's to read: its first bytes go into the
                // error, as any refused body's would, and the connection is let go.
                // Read for as long as one attempt may take at most, so a stalled body cannot hang the call.
                let within = context.effectiveTimeout ?? Self.refusedStreamWait
                response.body = .bytes(await stream.prefix(Self.refusedStreamPreview, within: within))
            }
            let error = SwitchyardError(
                code: .httpStatus,
                message: "the server answered \(code) \(status.reasonPhrase), "
                    + "outside the acceptable \(acceptable.lowerBound)...\(acceptable.upperBound)",
                response: response
            )
            throw error.filling(from: context).traced(by: control)
        }
        return Exchange(response: response, status: status, context: context, control: control, decoder: entry.decoder, start: start)
    }

    /// Sends a call named at the call site (the intensive style) and returns the raw response.
    ///
    /// - Parameters:
    ///   - service: the service.
    ///   - method: the HTTP method.
    ///   - path: the path template, such as `/users/{id}`.
    ///   - pathParameters: values for the placeholders.
    ///   - parameters: parameters for the query or body (the query when there is an explicit body).
    ///   - body: an explicit body (JSON, bytes, a streamed file or multipart form).
    ///   - headerFields: header fields for this call.
    ///   - encoding: where parameters go; `nil` for the service's default.
    ///   - options: further adjustments.
    /// - Returns: the response with the call's metadata.
    /// - Throws: ``SwitchyardError``.
    @concurrent public func send(
        _ service: ServiceID,
        _ method: HTTPRequest.Method,
        _ path: String,
        pathParameters: [String: String] = [:],
        parameters: Parameters = [:],
        body: RequestBody? = nil,
        headerFields: HTTPFields = [:],
        encoding: ParameterEncoding? = nil,
        options: CallOptions? = nil
    ) async throws(SwitchyardError) -> CallResult<Response> {
        try await send(
            DynamicEndpoint<Response>(
                service: service,
                method: method,
                path: path,
                pathParameters: pathParameters,
                parameters: parameters,
                body: body,
                headerFields: headerFields,
                encoding: encoding
            ),
            options: options
        )
    }

    /// Sends a call named at the call site (the intensive style) and decodes the body as JSON.
    ///
    /// - Parameters:
    ///   - service: the service.
    ///   - method: the HTTP method.
    ///   - path: the path template, such as `/users/{id}`.
    ///   - pathParameters: values for the placeholders.
    ///   - parameters: parameters for the query or body (the query when there is an explicit body).
    ///   - body: an explicit body (JSON, bytes, a streamed file or multipart form).
    ///   - headerFields: header fields for this call.
    ///   - encoding: where parameters go; `nil` for the service's default.
    ///   - options: further adjustments.
    ///   - type: the output type.
    /// - Returns: the decoded output with the call's metadata.
    /// - Throws: ``SwitchyardError``.
    @concurrent public func send<Output: Decodable & Sendable>(
        _ service: ServiceID,
        _ method: HTTPRequest.Method,
        _ path: String,
        pathParameters: [String: String] = [:],
        parameters: Parameters = [:],
        body: RequestBody? = nil,
        headerFields: HTTPFields = [:],
        encoding: ParameterEncoding? = nil,
        options: CallOptions? = nil,
        as type: Output.Type
    ) async throws(SwitchyardError) -> CallResult<Output> {
        try await send(
            DynamicEndpoint<Output>(
                service: service,
                method: method,
                path: path,
                pathParameters: pathParameters,
                parameters: parameters,
                body: body,
                headerFields: headerFields,
                encoding: encoding,
                as: type
            ),
            options: options
        )
    }
}

extension APIClient {
    /// How much of a refused streamed answer the error keeps.
    static let refusedStreamPreview = 64 << 10
    /// How long a refused streamed answer's first bytes are waited for when the call has no timeout.
    static let refusedStreamWait = Duration.seconds(10)

    /// Refuses a request to another origin than the service's unless the call allows it, and a
    /// foreign request over `http` from an `https` service in any case.
    fileprivate static func admitForeignOrigin(_ request: Request, base: BaseURL, allowed: Bool) throws(SwitchyardError) {
        let origin = "\(request.head.scheme ?? "?")://\(request.head.authority ?? "?")"
        guard allowed else {
            throw SwitchyardError(
                code: .invalidRequest,
                message: "the call goes to \(origin), not to the service's origin \(base.scheme)://\(base.authority); "
                    + "allow it with CallOptions.allowsForeignOrigin (the service's credentials are never sent there)"
            )
        }
        if base.scheme == "https", request.head.scheme != "https" {
            throw SwitchyardError(
                code: .invalidRequest,
                message: "the call goes to \(origin) over plain http from an https service; a foreign origin must use https"
            )
        }
    }
}

extension SwitchyardError {
    fileprivate func with(requestID: RequestID, endpoint: String) -> SwitchyardError {
        var copy = self
        copy.requestID = copy.requestID ?? requestID
        copy.endpoint = copy.endpoint ?? endpoint
        return copy
    }

    fileprivate func filling(service: ServiceID) -> SwitchyardError {
        var copy = self
        copy.serviceID = copy.serviceID ?? service
        return copy
    }
}

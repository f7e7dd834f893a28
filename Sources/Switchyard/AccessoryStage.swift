import Synchronization

/// Tells ``Accessory`` observers about every call that passes through it: will start, did start,
/// upload and download progress (reported by the transport through ``CallContext/transferObserver``),
/// and did finish with the outcome.
///
/// Register one with a service's stages for accessories that watch every call; attach more to a
/// single call with ``CallOptions/attach(_:)``. Events reach each accessory in order on a task of
/// their own, so they never hold up the call; ``Accessory/callDidFinish(_:outcome:)`` is always the
/// last. A transport that does not report starting gets ``Accessory/callDidStart(_:)`` from the stage
/// just before the outcome, so the sequence is always complete.
public struct AccessoryStage: Middleware {
    /// The observers, told in this order.
    public let accessories: [any Accessory]

    /// The stage's name, `Accessories`.
    public var name: String { "Accessories" }

    /// Creates the stage.
    public init(_ accessories: [any Accessory]) {
        self.accessories = accessories
    }

    /// Reports the call's lifecycle to the accessories while passing it on unchanged.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        guard !accessories.isEmpty else { return try await next(request, context) }
        let call = AccessoryCall(
            requestID: context.requestID, serviceID: context.serviceID, endpointName: context.endpointName, tags: context.tags,
            method: request.method, path: String(request.pathWithoutQuery)
        )
        let (events, sink) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        let accessories = self.accessories
        _ = Task {
            for await event in events {
                for accessory in accessories { event.deliver(to: accessory, call: call) }
            }
        }
        let started = Atomic<Bool>(false)
        sink.yield(.willStart)
        var inner = context
        inner.transferObserver = TransferObserver(
            started: { if !started.exchange(true, ordering: .relaxed) { sink.yield(.didStart) } },
            sent: { sink.yield(.sent($0)) },
            received: { sink.yield(.received($0)) }
        ).combined(with: context.transferObserver)
        let start = ContinuousClock.now
        let outcome: Result<Response, SwitchyardError>
        var thrown: (any Error)?
        do {
            outcome = .success(try await next(request, inner))
        } catch {
            thrown = error
            outcome = .failure(SwitchyardError.wrapping(error))
        }
        if !started.exchange(true, ordering: .relaxed) { sink.yield(.didStart) }
        let duration = ContinuousClock.now - start
        sink.yield(.didFinish(outcome.map { AccessoryCall.Outcome(status: $0.status, bodySize: $0.body.count, duration: duration) }))
        sink.finish()
        if let thrown { throw thrown }
        return try outcome.get()
    }

    /// One lifecycle event, queued for delivery.
    enum Event: Sendable {
        case willStart
        case didStart
        case sent(TransferProgress)
        case received(TransferProgress)
        case didFinish(Result<AccessoryCall.Outcome, SwitchyardError>)

        func deliver(to accessory: any Accessory, call: AccessoryCall) {
            switch self {
            case .willStart: accessory.callWillStart(call)
            case .didStart: accessory.callDidStart(call)
            case .sent(let progress): accessory.call(call, didSend: progress)
            case .received(let progress): accessory.call(call, didReceive: progress)
            case .didFinish(let outcome): accessory.callDidFinish(call, outcome: outcome)
            }
        }
    }
}

extension CallOptions {
    /// Attaches accessories to this call alone; they see it from outside the service's stages.
    public mutating func attach(_ accessories: [any Accessory]) {
        additionalStages.append(AccessoryStage(accessories))
    }
}

import Dispatch
import Synchronization

/// Tells ``Accessory`` observers about every call that passes through it: will start, did start,
/// upload and download progress (reported by the transport through ``CallContext/reportSent(_:)`` and its siblings),
/// and did finish with the outcome.
///
/// Register one with a service's stages for accessories that watch every call; attach more to a
/// single call with ``CallOptions/attach(_:)``. Events reach each accessory in order on the stage's
/// own serial dispatch queue — not on the call's task, nor on Swift's cooperative threads — so an
/// accessory that is slow, or even blocks, never holds up a call; ``Accessory/callDidFinish(_:outcome:)``
/// is always the last. A transport that does not report starting gets ``Accessory/callDidStart(_:)`` from the stage
/// just before the outcome, so the sequence is always complete.
public struct AccessoryStage: Stage {
    /// The observers, told in this order.
    public let accessories: [any Accessory]
    /// Where events are delivered, in order.
    private let queue: DispatchQueue

    /// ``StageID/accessories``.
    public var id: StageID { .accessories }

    /// Creates the stage.
    public init(_ accessories: [any Accessory]) {
        self.accessories = accessories
        self.queue = DispatchQueue(label: "switchyard.accessories")
    }

    /// Reports the call's lifecycle to the accessories while passing it on unchanged.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        guard !accessories.isEmpty else { return try await next(request, context) }
        let call = AccessoryCall(
            requestID: context.requestID,
            serviceID: context.serviceID,
            endpointName: context.endpointName,
            tags: context.tags,
            method: request.method,
            path: String(request.pathWithoutQuery)
        )
        let sink = Sink(queue: queue, accessories: accessories, call: call)
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
        sink.yield(
            .didFinish(
                outcome.map {
                    AccessoryCall.Outcome(
                        status: $0.status,
                        bodySize: $0.body.count,
                        duration: duration
                    )
                }
            )
        )
        sink.finish()
        if let thrown { throw thrown }
        return try outcome.get()
    }

    /// Queues one call's events for delivery; after ``finish()`` nothing more is delivered.
    final class Sink: Sendable {
        private let queue: DispatchQueue
        private let accessories: [any Accessory]
        private let call: AccessoryCall
        private let finished = Atomic<Bool>(false)

        init(queue: DispatchQueue, accessories: [any Accessory], call: AccessoryCall) {
            self.queue = queue
            self.accessories = accessories
            self.call = call
        }

        func yield(_ event: Event) {
            guard !finished.load(ordering: .acquiring) else { return }
            let accessories = self.accessories
            let call = self.call
            queue.async {
                for accessory in accessories { event.deliver(to: accessory, call: call) }
            }
        }

        func finish() {
            finished.store(true, ordering: .releasing)
        }
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

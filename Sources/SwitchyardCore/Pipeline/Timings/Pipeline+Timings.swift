import Synchronization

extension Pipeline {
    /// Runs a general stage for a call that records timings: its own time before each hand-over
    /// counts as inbound, after the last response came back as outbound. Never inlined: its clock
    /// readings would otherwise take room in the frame of every link that runs a stage.
    @inline(never)
    static func timed(
        _ stage: any Stage,
        id: StageID,
        _ request: consuming Request,
        context: CallContext,
        next: @escaping NextStage,
        timings: StageTimingRecorder
    ) async throws -> Response {
        let entry = timings.enter(id)
        // When the stage last resumed its own work, and whether it has handed the request on yet.
        let mark = Mutex((since: ContinuousClock.now, handedOver: false))
        let handOver: NextStage = { (request: consuming Request, context: CallContext) in
            let now = ContinuousClock.now
            timings.add(entry, inbound: now - mark.withLock { $0.since })
            defer { mark.withLock { $0 = (ContinuousClock.now, true) } }
            return try await next(request, context)
        }
        defer {
            let (since, handedOver) = mark.withLock { $0 }
            // A stage that answered without handing the request on (a cache hit) worked inbound only.
            if handedOver {
                timings.add(entry, outbound: ContinuousClock.now - since)
            } else {
                timings.add(entry, inbound: ContinuousClock.now - since)
            }
        }
        return try await stage.intercept(request, context: context, next: handOver)
    }
}

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
        let tracer = timings.tracer
        let step = tracer?.open(id, attempt: context.attempt, request: copy request)
        // When the stage last resumed its own work, whether it has handed the request on yet, and
        // the time spent inside it.
        let mark = Mutex((since: ContinuousClock.now, handedOver: false, inside: Duration.zero))
        let handOver: NextStage = { (request: consuming Request, context: CallContext) in
            let now = ContinuousClock.now
            timings.add(entry, inbound: now - mark.withLock { $0.since })
            if let tracer, let step { tracer.handOver(step, copy request) }
            defer {
                let back = ContinuousClock.now
                mark.withLock { $0 = (back, true, $0.inside + (back - now)) }
            }
            let response = try await next(request, context)
            if let tracer, let step { tracer.received(step, response) }
            return response
        }
        let start = ContinuousClock.now
        var returned: Response?
        var failure: (any Error)?
        defer {
            let (since, handedOver, inside) = mark.withLock { $0 }
            let now = ContinuousClock.now
            // A stage that answered without handing the request on (a cache hit) worked inbound only.
            if handedOver {
                timings.add(entry, outbound: now - since)
            } else {
                timings.add(entry, inbound: now - since)
            }
            if let tracer, let step { tracer.close(step, response: returned, error: failure, duration: now - start - inside) }
        }
        do {
            let response = try await stage.intercept(request, context: context, next: handOver)
            if tracer != nil { returned = response }
            return response
        } catch {
            failure = error
            throw error
        }
    }

    /// Runs request stage `index` of a run for a call that records timings (and perhaps a trace):
    /// its time counts as inbound, its request before and after is traced.
    @inline(never)
    static func prepareRecorded(
        _ index: Int,
        _ run: Run<any RequestStage>,
        _ synchronous: [any SynchronousRequestStage],
        _ slots: [Int]?,
        _ request: inout Request,
        context: CallContext,
        timings: StageTimingRecorder
    ) async throws {
        let id = run.links[index].id
        let entry = timings.enter(id)
        let step = timings.tracer?.open(id, attempt: context.attempt, request: request)
        let start = CallClock.now
        do {
            try await prepare(index, run.stages, synchronous, slots, &request, context: context)
        } catch {
            let elapsed = CallClock.now - start
            timings.add(entry, inbound: elapsed)
            if let tracer = timings.tracer, let step { tracer.close(step, response: nil, error: error, duration: elapsed) }
            throw error
        }
        let elapsed = CallClock.now - start
        timings.add(entry, inbound: elapsed)
        if let tracer = timings.tracer, let step {
            tracer.handOver(step, request)
            tracer.close(step, response: nil, error: nil, duration: elapsed)
        }
    }

    /// The exchange with the transport for a call that records timings or keeps the body it
    /// received: its time recorded as its own entry, what it sent and received traced.
    @inline(never)
    static func recordedExchange(
        _ request: Request,
        context: CallContext,
        timings: StageTimingRecorder,
        exchange: (Request) async throws -> Response
    ) async throws -> Response {
        let entry = timings.enter(.transport)
        let step = timings.tracer?.open(.transport, attempt: context.attempt, request: request)
        let start = CallClock.now
        do {
            let response = try await exchange(request)
            let elapsed = CallClock.now - start
            timings.add(entry, inbound: elapsed)
            if let tracer = timings.tracer, let step {
                tracer.received(step, response)
                tracer.close(step, response: nil, error: nil, duration: elapsed)
            }
            return response
        } catch {
            let elapsed = CallClock.now - start
            timings.add(entry, inbound: elapsed)
            if let tracer = timings.tracer, let step { tracer.close(step, response: nil, error: error, duration: elapsed) }
            throw error
        }
    }

    /// Runs response stage `index` of a run for a call that records timings (and perhaps a trace):
    /// its time counts as outbound, its response before and after is traced.
    @inline(never)
    static func processRecorded(
        _ index: Int,
        _ stages: [any ResponseStage],
        _ synchronous: [any SynchronousResponseStage],
        _ slots: [Int]?,
        _ response: inout Response,
        for request: Request,
        context: CallContext,
        timings: StageTimingRecorder,
        entry: (timing: Int, step: Int)
    ) async throws {
        let tracer = entry.step >= 0 ? timings.tracer : nil
        tracer?.received(entry.step, response)
        let start = CallClock.now
        do {
            try await process(index, stages, synchronous, slots, &response, for: request, context: context)
        } catch {
            let elapsed = CallClock.now - start
            timings.add(entry.timing, outbound: elapsed)
            tracer?.close(entry.step, response: nil, error: error, duration: elapsed)
            throw error
        }
        let elapsed = CallClock.now - start
        timings.add(entry.timing, outbound: elapsed)
        tracer?.close(entry.step, response: response, error: nil, duration: elapsed)
    }
}

// The tuned chain a pipeline actually runs: the same order as `Pipeline.referenceSend`, which
// defines it (Pipeline.swift), with runs of one-way stages folded into one link, synchronous stages
// called as plain functions, and no closure forwarder between links. `PipelineOrderTests`
// (SwitchyardCoreTests) runs random stage mixes through both and compares what every stage saw, in
// which order, and how each call ended.
extension Pipeline {
    /// One link of the folded chain, run by ``pass(_:_:context:)``: a run of request stages, a run of
    /// response stages, a general stage, or the transport. Links are objects the fold builds once,
    /// not closures: a request passes from link to link through one function calling itself, with no
    /// closure forwarder's frame and no executor hop between links. A general stage still receives
    /// the rest of the chain as a `NextStage`, made once at the fold.
    class ChainLink: @unchecked Sendable {
        // Unchecked: every property, here and in the subclasses, is a `let` of a `Sendable` type.
        /// Which subclass a link is.
        enum Kind { case requests, responses, stage, transport }

        /// Which subclass the link is, so ``pass(_:_:context:)`` casts without a dynamic check.
        let kind: Kind

        init(kind: Kind) {
            self.kind = kind
        }
    }

    /// A run of request-only stages, outermost first, then `rest`.
    final class RequestsLink: ChainLink, @unchecked Sendable {
        let run: Run<any RequestStage>
        let synchronous: [any SynchronousRequestStage]
        let slots: [Int]?
        /// The common run: every stage synchronous (closure stages that do not wait).
        let allSynchronous: Bool
        let skippable: Bool
        let rest: ChainLink

        init(_ run: Run<any RequestStage>, rest: ChainLink, skippable: Bool) {
            self.run = run
            (synchronous, slots) = Pipeline.synchronousSlots(of: run.stages, as: (any SynchronousRequestStage).self)
            allSynchronous = synchronous.count == run.stages.count
            self.skippable = skippable
            self.rest = rest
            super.init(kind: .requests)
        }
    }

    /// A run of response-only stages, outermost first, around `rest`.
    final class ResponsesLink: ChainLink, @unchecked Sendable {
        let run: Run<any ResponseStage>
        let synchronous: [any SynchronousResponseStage]
        let slots: [Int]?
        let skippable: Bool
        let rest: ChainLink

        init(_ run: Run<any ResponseStage>, rest: ChainLink, skippable: Bool) {
            self.run = run
            (synchronous, slots) = Pipeline.synchronousSlots(of: run.stages, as: (any SynchronousResponseStage).self)
            self.skippable = skippable
            self.rest = rest
            super.init(kind: .responses)
        }
    }

    /// One general stage around `rest`.
    final class StageLink: ChainLink, @unchecked Sendable {
        let link: Link
        let skippable: Bool
        let rest: ChainLink
        /// What the stage calls: the rest of the chain as a `NextStage`.
        let next: NextStage

        init(_ link: Link, rest: ChainLink, skippable: Bool) {
            self.link = link
            self.skippable = skippable
            self.rest = rest
            next = { (request: consuming Request, context: CallContext) in try await Pipeline.pass(rest, request, context: context) }
            super.init(kind: .stage)
        }
    }

    /// The innermost link: the transport, and the follower that may take its answer further.
    final class TransportLink: ChainLink, @unchecked Sendable {
        let transport: any Transport
        /// Whether the transport observes call cancellation itself (read once).
        let observes: Bool
        /// Whether a follower may take the transport's answers further.
        let hasFollower: Bool
        /// The follower; one that never follows when there is none. Not optional: calling it reads
        /// the existential in place instead of copying it out of an optional.
        let follower: any ExchangeFollower
        /// What the follower sends with: one exchange with the transport.
        let send: NextStage

        init(_ transport: any Transport, follower: (any ExchangeFollower)?) {
            let observes = transport.observesCallCancellation
            self.transport = transport
            self.observes = observes
            self.hasFollower = follower != nil
            self.follower = follower ?? NoFollower()
            send = { (request: consuming Request, context: CallContext) in
                try await Pipeline.sendOnce(request, transport: transport, observes: observes, context: context)
            }
            super.init(kind: .transport)
        }
    }

    /// Wraps `inner` in the stages of `links`, outermost first.
    ///
    /// Runs of consecutive ``RequestStage``s are folded into one link that calls their `prepare`
    /// methods in order and then `next` once; runs of ``ResponseStage``s into one link that calls
    /// `next` once and then their `process` methods in reverse order. The order and the results are
    /// exactly those of one link per stage, with fewer asynchronous frames and one copy of the
    /// request instead of one per stage. Within a run, a ``SynchronousRequestStage``'s or
    /// ``SynchronousResponseStage``'s synchronous method is called as a plain function, with no
    /// asynchronous frame of its own.
    static func fold(_ links: [Link], around inner: ChainLink, skippable: Bool) -> ChainLink {
        var next = inner
        var index = links.count
        while index > 0 {
            let rest = next
            if links[index - 1].stage is any RequestStage {
                var run = Run<any RequestStage>()
                while index > 0, let stage = links[index - 1].stage as? any RequestStage {
                    run.prepend(stage, links[index - 1])
                    index -= 1
                }
                next = RequestsLink(run, rest: rest, skippable: skippable)
            } else if links[index - 1].stage is any ResponseStage {
                var run = Run<any ResponseStage>()
                while index > 0, let stage = links[index - 1].stage as? any ResponseStage {
                    run.prepend(stage, links[index - 1])
                    index -= 1
                }
                next = ResponsesLink(run, rest: rest, skippable: skippable)
            } else {
                index -= 1
                next = StageLink(links[index], rest: rest, skippable: skippable)
            }
        }
        return next
    }

    /// A run of consecutive one-way stages, kept as parallel arrays so that the common call — no
    /// stage skipped, none opt-in — iterates the stages alone.
    struct Run<Element: Sendable>: Sendable {
        var stages: [Element] = []
        var links: [Link] = []
        var hasOptIn = false
        var bearsCredentials = false

        mutating func prepend(_ stage: Element, _ link: Link) {
            stages.insert(stage, at: 0)
            links.insert(link, at: 0)
            hasOptIn = hasOptIn || link.optIn
            bearsCredentials = bearsCredentials || link.bearsCredentials
        }

        /// Whether every stage of the run runs for a call with this context, without checking each.
        @inline(__always)
        func runsWhole(in context: CallContext, skippable: Bool) -> Bool {
            !hasOptIn && !(bearsCredentials && context.isForeignOrigin) && (!skippable || context.skippedStages.isEmpty)
        }
    }

    /// Passes a request through `link` and the links inside it: the whole chain runs in this one
    /// function, calling itself from link to link. The transport link counts the send, calls the
    /// transport, and lets the follower take an answer further (a redirect) — only when it asks to,
    /// so that the common answer costs one check; timing and keeping the body are handled in a
    /// function of their own.
    nonisolated(nonsending) static func pass(
        _ link: ChainLink,
        _ request: consuming Request,
        context: CallContext
    ) async throws -> Response {
        switch link.kind {
        case .requests:
            let link = unsafeDowncast(link, to: RequestsLink.self)
            let whole = link.run.runsWhole(in: context, skippable: link.skippable)
            if link.allSynchronous, context.control.timings == nil {
                try prepareSynchronously(link.synchronous, link.run, whole: whole, skippable: link.skippable, &request, context: context)
            } else {
                try await prepareEach(
                    link.run,
                    link.synchronous,
                    link.slots,
                    whole: whole,
                    skippable: link.skippable,
                    &request,
                    context: context
                )
            }
            return try await pass(link.rest, request, context: context)
        case .responses:
            return try await passResponses(unsafeDowncast(link, to: ResponsesLink.self), request, context: context)
        case .stage:
            return try await passStage(unsafeDowncast(link, to: StageLink.self), request, context: context)
        case .transport:
            let link = unsafeDowncast(link, to: TransportLink.self)
            let control = context.control
            control.recordTransportSend(request)  // one attempt, however often the follower sends
            if control.timings != nil || control.keepsReceivedBody {
                return try await observedExchange(request, link, context: context)
            }
            return try await exchange(request, link, context: context)
        }
    }

    /// One general stage around the rest of the chain. A function of its own, so that the other
    /// links' frames stay small.
    @inline(never)
    private nonisolated(nonsending) static func passStage(
        _ link: StageLink,
        _ request: consuming Request,
        context: CallContext
    ) async throws -> Response {
        guard link.link.runs(in: context, skippable: link.skippable) else { return try await pass(link.rest, request, context: context) }
        let id = link.link.id
        do {
            if let timings = context.control.timings {
                return try await timed(link.link.stage, id: id, request, context: context, next: link.next, timings: timings)
            }
            return try await link.link.stage.intercept(request, context: context, next: link.next)
        } catch {
            throw SwitchyardError.wrapping(error, stage: id, in: context)
        }
    }

    /// A run of response-only stages around the rest of the chain: their `process` methods run
    /// innermost first. A function of its own, so that the other links' frames stay small.
    @inline(never)
    private nonisolated(nonsending) static func passResponses(
        _ link: ResponsesLink,
        _ request: consuming Request,
        context: CallContext
    ) async throws -> Response {
        let run = link.run
        let stages = run.stages
        let synchronous = link.synchronous
        let slots = link.slots
        let skippable = link.skippable
        let sent = request
        let whole = run.runsWhole(in: context, skippable: skippable)
        // Entered outermost first, as a request passes them, so that timings and a trace list them in
        // order.
        let entries = context.control.timings.map { timings in
            stages.indices.map { index in
                whole || run.links[index].runs(in: context, skippable: skippable)
                    ? timings.enter(run.links[index].id, tracing: context.attempt) : (-1, -1)
            }
        }
        var response = try await pass(link.rest, sent, context: context)
        for index in stages.indices.reversed() where whole || run.links[index].runs(in: context, skippable: skippable) {
            do {
                if let timings = context.control.timings, let entries {
                    try await processRecorded(
                        index,
                        stages,
                        synchronous,
                        slots,
                        &response,
                        for: sent,
                        context: context,
                        timings: timings,
                        entry: entries[index]
                    )
                } else {
                    try await process(index, stages, synchronous, slots, &response, for: sent, context: context)
                }
            } catch {
                throw SwitchyardError.wrapping(error, stage: run.links[index].id, in: context).carrying(response)
            }
        }
        return response

    }

    /// Runs a run of request stages one by one, with their timings when the call records them: the
    /// run that has asynchronous stages, or a call that records timings. A function of its own, so
    /// that the common run's link keeps a small frame.
    @inline(never)
    private nonisolated(nonsending) static func prepareEach(
        _ run: Run<any RequestStage>,
        _ synchronous: [any SynchronousRequestStage],
        _ slots: [Int]?,
        whole: Bool,
        skippable: Bool,
        _ request: inout Request,
        context: CallContext
    ) async throws {
        let stages = run.stages
        let timings = context.control.timings
        for index in stages.indices where whole || run.links[index].runs(in: context, skippable: skippable) {
            do {
                if let timings {
                    try await prepareRecorded(index, run, synchronous, slots, &request, context: context, timings: timings)
                } else {
                    try await prepare(index, stages, synchronous, slots, &request, context: context)
                }
            } catch {
                throw SwitchyardError.wrapping(error, stage: run.links[index].id, in: context)
            }
        }
    }

    /// Runs request stage `index` of a run: in place as a plain function when it is synchronous (it
    /// has a slot), through its `async` requirement otherwise. Inlined, so a synchronous stage costs
    /// no asynchronous frame.
    @inline(__always)
    nonisolated(nonsending) static func prepare(
        _ index: Int,
        _ stages: [any RequestStage],
        _ synchronous: [any SynchronousRequestStage],
        _ slots: [Int]?,
        _ request: inout Request,
        context: CallContext
    ) async throws {
        if let slots, slots[index] >= 0 {
            try synchronous[slots[index]].prepareSynchronously(&request, context: context)
        } else {
            try await stages[index].prepare(&request, context: context)
        }
    }

    /// Runs a run of synchronous request stages, in order, as plain function calls: one synchronous
    /// call from the link's asynchronous frame, whose loop keeps its state on the stack.
    @inline(never)
    private static func prepareSynchronously(
        _ stages: [any SynchronousRequestStage],
        _ run: Run<any RequestStage>,
        whole: Bool,
        skippable: Bool,
        _ request: inout Request,
        context: CallContext
    ) throws {
        for index in stages.indices where whole || run.links[index].runs(in: context, skippable: skippable) {
            do {
                try stages[index].prepareSynchronously(&request, context: context)
            } catch {
                throw SwitchyardError.wrapping(error, stage: run.links[index].id, in: context)
            }
        }
    }

    /// Runs response stage `index` of a run, as `prepare` runs a request stage.
    @inline(__always)
    nonisolated(nonsending) static func process(
        _ index: Int,
        _ stages: [any ResponseStage],
        _ synchronous: [any SynchronousResponseStage],
        _ slots: [Int]?,
        _ response: inout Response,
        for request: Request,
        context: CallContext
    ) async throws {
        if let slots, slots[index] >= 0 {
            try synchronous[slots[index]].processSynchronously(&response, for: request, context: context)
        } else {
            try await stages[index].process(&response, for: request, context: context)
        }
    }

    /// The stages of a run that are `Synchronous` (called as plain functions), and for each stage of
    /// the run its position among them, or -1 for an asynchronous one; no positions when none is.
    static func synchronousSlots<Element, Synchronous>(
        of stages: [Element],
        as _: Synchronous.Type
    ) -> (stages: [Synchronous], slots: [Int]?) {
        var synchronous: [Synchronous] = []
        var slots: [Int] = []
        for stage in stages {
            if let stage = stage as? Synchronous {
                slots.append(synchronous.count)
                synchronous.append(stage)
            } else {
                slots.append(-1)
            }
        }
        return (synchronous, synchronous.isEmpty ? nil : slots)
    }

    /// One exchange with the transport, taken further when the follower asks: the transport is
    /// called from the innermost link's own frame.
    @inline(__always)
    private nonisolated(nonsending) static func exchange(
        _ request: consuming Request,
        _ link: TransportLink,
        context: CallContext
    ) async throws -> Response {
        guard link.hasFollower else {
            return try await sendOnce(request, transport: link.transport, observes: link.observes, context: context)
        }
        let request = copy request
        let response = try await sendOnce(request, transport: link.transport, observes: link.observes, context: context)
        guard link.follower.follows(response) else { return response }
        return try await link.follower.follow(response, for: request, context: context, send: link.send)
    }

    /// The follower of a transport link that has none: it never follows.
    private struct NoFollower: ExchangeFollower {
        func follows(_ response: Response) -> Bool { false }

        func follow(_ response: Response, for request: Request, context: CallContext, send: NextStage) async throws -> Response {
            response
        }
    }

    /// The exchange with the transport's time recorded as its own entry when the call records
    /// timings, and the body it answered with kept when the call keeps it.
    private nonisolated(nonsending) static func observedExchange(
        _ request: Request,
        _ link: TransportLink,
        context: CallContext
    ) async throws -> Response {
        let control = context.control
        let response: Response
        if let timings = control.timings {
            response = try await recordedExchange(request, context: context, timings: timings) { request in
                try await exchange(request, link, context: context)
            }
        } else {
            response = try await exchange(request, link, context: context)
        }
        // A stream is never kept: it would keep itself, its connection and the call alive.
        if control.keepsReceivedBody, response.body.stream == nil { control.recordReceived(response.body) }
        return response
    }

    /// One exchange with the transport: in the caller's task when the transport observes call
    /// cancellation, else in a task the call's cancellation can cancel.
    @inline(__always)
    nonisolated(nonsending) static func sendOnce(
        _ request: Request,
        transport: any Transport,
        observes: Bool,
        context: CallContext
    ) async throws -> Response {
        do {
            if context.control.isCancelled, let cancelled = context.control.cancellationError { throw cancelled }
            try Task.checkCancellation()
            if observes { return try await transport.send(request, context: context) }
            return try await context.control.runCancellable { try await transport.send(request, context: context) }
        } catch {
            throw SwitchyardError.wrapping(error, as: .transport, stage: .transport, in: context)
        }
    }
}

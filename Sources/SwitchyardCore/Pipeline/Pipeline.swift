/// A service's stages folded, once, into a single chain that ends in its transport.
///
/// A pipeline is built when a service is registered and reused by every call. Calls can still
/// adjust it without rebuilding it: a call may skip stages by id (``CallContext/skippedStages``,
/// checked as the chain runs), enable the stages registered as opt-in (``CallContext/enabledStages``),
/// and wrap additional stages of its own around it (they run *outside* the service's stages, so
/// signing, encryption and logging see their effect).
///
/// ```swift
/// print(try registry.pipeline(for: .users))
/// // users: [1] RequestIDHeader → [2] Logging → [3] Signing → transport AsyncHTTPClientTransport
/// ```
public struct Pipeline: Sendable, CustomStringConvertible {
    /// The service this pipeline belongs to.
    public var serviceID: ServiceID { storage.serviceID }
    /// The ids of the stages, outermost first (the order requests pass them).
    public var stageIDs: [StageID] { storage.stageIDs }
    /// The ids of the stages registered as opt-in (``Stage/optIn()``): they run only for calls that
    /// enable them.
    public var optInStageIDs: Set<StageID> { storage.optInStageIDs }
    /// The order rules each stage declares (``Stage/orderRules``), by stage id: what the pipeline was
    /// checked against when its service was registered.
    public var orderRules: [StageID: [StageOrderRule]] {
        Dictionary(storage.stages.map { ($0.id, $0.orderRules) }.filter { !$0.1.isEmpty }, uniquingKeysWith: +)
    }
    /// The name of the transport at the end.
    public var transportName: String { storage.transportName }
    /// The registered stages, outermost first, as the fold runs them (opt-in ones unwrapped): the
    /// features built on the kernel read what they need from them once, when a service is registered.
    package var stages: [any Stage] { storage.stages }
    /// The folded chain and what is known about it, behind one reference: a call copies a
    /// pipeline with one retain.
    private let storage: Storage

    /// What a pipeline holds; it never changes after the fold.
    private final class Storage: Sendable {
        let serviceID: ServiceID
        let stageIDs: [StageID]
        let optInStageIDs: Set<StageID>
        let transportName: String
        let stages: [any Stage]
        let serviceState: (any AnyObject & Sendable)?
        let entry: ChainLink

        init(
            serviceID: ServiceID,
            links: [Link],
            transport: any Transport,
            follower: (any ExchangeFollower)?,
            serviceState: ([any Stage]) -> (any AnyObject & Sendable)?
        ) {
            self.serviceID = serviceID
            self.stageIDs = links.map(\.id)
            self.optInStageIDs = Set(links.filter(\.optIn).map(\.id))
            self.transportName = transport.name
            self.stages = links.map(\.stage)
            self.serviceState = serviceState(self.stages)
            self.entry = Pipeline.fold(links, around: TransportLink(transport, follower: follower), skippable: true)
        }
    }

    /// Folds stages and a transport into a pipeline.
    ///
    /// - Parameters:
    ///   - serviceID: the service the pipeline belongs to.
    ///   - stages: the stages, outermost first.
    ///   - transport: the transport at the end.
    public init(serviceID: ServiceID, stages: [any Stage], transport: any Transport) {
        self.init(serviceID: serviceID, stages: stages, transport: transport, follower: nil, serviceState: { _ in nil })
    }

    /// Folds stages and a transport into a pipeline whose each exchange with the transport may be
    /// taken further by `follower` (a service's redirect following): it is not one of the listed
    /// stages, and however often it sends, the call counts one attempt. Every call's context carries
    /// the state `serviceState` derives, once, from the stages as the fold runs them (opt-in ones
    /// unwrapped) — ``CallContext/serviceState`` — unless the caller set its own.
    package init(
        serviceID: ServiceID,
        stages: [any Stage],
        transport: any Transport,
        follower: (any ExchangeFollower)?,
        serviceState: ([any Stage]) -> (any AnyObject & Sendable)?
    ) {
        storage = Storage(
            serviceID: serviceID,
            links: stages.map(Link.init),
            transport: transport,
            follower: follower,
            serviceState: serviceState
        )
    }

    /// What every call's context carries for the features built on the kernel, unless set.
    package var serviceState: (any AnyObject & Sendable)? { storage.serviceState }

    /// Sends a request through the stages and the transport.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - context: the call's context.
    ///   - additionalStages: stages for this call only, run outside the service's stages.
    /// - Returns: the response as the outermost stage returned it.
    /// - Throws: a ``SwitchyardError`` naming the failing stage.
    public func send(
        _ request: consuming Request,
        context: CallContext,
        additionalStages: [any Stage] = []
    ) async throws(SwitchyardError) -> Response {
        try await sendHere(request, context: context, additionalStages: additionalStages)
    }

    /// ``send(_:context:additionalStages:)`` on the caller's executor: how the client, already off
    /// any actor, sends a call without an executor hop at each link of the chain.
    package nonisolated(nonsending) func sendHere(
        _ request: consuming Request,
        context: CallContext,
        additionalStages: [any Stage]
    ) async throws(SwitchyardError) -> Response {
        if context.serviceState == nil, let state = storage.serviceState {
            var context = context
            context.serviceState = state
            return try await run(request, context: context, additionalStages: additionalStages)
        }
        return try await run(request, context: context, additionalStages: additionalStages)
    }

    /// Runs the chain (with the call's own stages around it, if any), converting what it throws.
    @inline(__always)
    private nonisolated(nonsending) func run(
        _ request: consuming Request,
        context: CallContext,
        additionalStages: [any Stage]
    ) async throws(SwitchyardError) -> Response {
        do {
            if additionalStages.isEmpty { return try await Self.pass(storage.entry, request, context: context) }
            let chain = Self.fold(additionalStages.map(Link.init), around: storage.entry, skippable: false)
            return try await Self.pass(chain, request, context: context)
        } catch {
            throw SwitchyardError.wrapping(error, stage: nil).filling(from: context)
        }
    }

    /// `service: [1] A → [2] B (opt-in) → transport T`.
    public var description: String {
        let stages = stageIDs.enumerated().map {
            "[\($0.offset + 1)] \($0.element)" + (optInStageIDs.contains($0.element) ? " (opt-in)" : "")
        }
        return "\(serviceID): " + (stages + ["transport \(transportName)"]).joined(separator: " → ")
    }

    /// Runs one stage around `next` exactly as a pipeline does: a ``RequestStage``'s `prepare` (a
    /// synchronous one's `prepareSynchronously`) then `next`, `next` then a ``ResponseStage``'s
    /// `process` (a synchronous one's `processSynchronously`), or any other stage's `intercept`.
    /// ``OptInStage`` and the testing harness use it, so a stage behaves the same wherever it runs.
    static func run(_ stage: any Stage, _ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        if let stage = stage as? any SynchronousRequestStage {
            var request = request
            try stage.prepareSynchronously(&request, context: context)
            return try await next(request, context)
        }
        if let stage = stage as? any RequestStage {
            var request = request
            try await stage.prepare(&request, context: context)
            return try await next(request, context)
        }
        if let stage = stage as? any SynchronousResponseStage {
            var response = try await next(request, context)
            try stage.processSynchronously(&response, for: request, context: context)
            return response
        }
        if let stage = stage as? any ResponseStage {
            var response = try await next(request, context)
            try await stage.process(&response, for: request, context: context)
            return response
        }
        return try await stage.intercept(request, context: context, next: next)
    }

    /// One link of the folded chain, run by ``pass(_:_:context:)``: a run of request stages, a run of
    /// response stages, a general stage, or the transport. Links are objects the fold builds once,
    /// not closures: a request passes from link to link through one function calling itself, with no
    /// closure forwarder's frame and no executor hop between links. A general stage still receives
    /// the rest of the chain as a `NextStage`, made once at the fold.
    fileprivate class ChainLink: @unchecked Sendable {
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
    private final class RequestsLink: ChainLink, @unchecked Sendable {
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
    private final class ResponsesLink: ChainLink, @unchecked Sendable {
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
    private final class StageLink: ChainLink, @unchecked Sendable {
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
    private final class TransportLink: ChainLink, @unchecked Sendable {
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

    /// One registered stage as the fold sees it: its id, the stage that does the work (unwrapped
    /// from ``OptInStage``), and whether it runs only when a call enables it.
    struct Link {
        let id: StageID
        let stage: any Stage
        let optIn: Bool
        let bearsCredentials: Bool

        init(_ stage: any Stage) {
            self.id = stage.id
            let unwrapped: any Stage
            if let marked = stage as? any OptInMarker {
                unwrapped = marked.inner
                self.optIn = true
            } else {
                unwrapped = stage
                self.optIn = false
            }
            self.stage = (unwrapped as? ClosureStage)?.folded ?? unwrapped
            self.bearsCredentials = self.stage is any CredentialBearingStage
        }

        /// Whether the link runs for a call with this context.
        @inline(__always)
        func runs(in context: CallContext, skippable: Bool) -> Bool {
            if optIn, !context.enabledStages.contains(id) { return false }
            if bearsCredentials, context.isForeignOrigin { return false }
            return !skippable || context.skippedStages.isEmpty || !context.skippedStages.contains(id)
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
    fileprivate static func fold(_ links: [Link], around inner: ChainLink, skippable: Bool) -> ChainLink {
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
    fileprivate nonisolated(nonsending) static func pass(
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
    fileprivate static func synchronousSlots<Element, Synchronous>(
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
    fileprivate nonisolated(nonsending) static func sendOnce(
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

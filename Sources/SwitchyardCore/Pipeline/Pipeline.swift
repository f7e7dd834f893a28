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
        Dictionary(storage.links.map { ($0.id, $0.stage.orderRules) }.filter { !$0.1.isEmpty }, uniquingKeysWith: +)
    }
    /// The name of the transport at the end.
    public var transportName: String { storage.transportName }
    /// The registered stages, outermost first, as the fold runs them (opt-in ones unwrapped): the
    /// features built on the kernel read what they need from them once, when a service is registered.
    package var stages: [any Stage] { storage.links.map(\.stage) }
    /// The folded chain and what is known about it, behind one reference: a call copies a
    /// pipeline with one retain.
    private let storage: Storage

    /// What a pipeline holds; it never changes after the fold.
    private final class Storage: Sendable {
        let serviceID: ServiceID
        let stageIDs: [StageID]
        let optInStageIDs: Set<StageID>
        let transportName: String
        let serviceState: (any AnyObject & Sendable)?
        let entry: ChainLink
        /// What the reference fold reads: the links, the transport and the follower.
        let links: [Link]
        let transport: any Transport
        let follower: (any ExchangeFollower)?

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
            self.serviceState = serviceState(links.map(\.stage))
            self.entry = Pipeline.fold(links, around: TransportLink(transport, follower: follower), skippable: true)
            self.links = links
            self.transport = transport
            self.follower = follower
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

    /// The order a pipeline runs its stages in, stated plainly: what ``send(_:context:additionalStages:)``
    /// must do, written as one recursive function over the stages. The tuned chain that calls run
    /// (`Pipeline+Chain.swift`) folds runs of one-way stages into one link and calls synchronous
    /// stages as plain functions; the result must be the same, and a randomized test checks it.
    ///
    /// - The call's own stages run first, outermost, and cannot be skipped; then the service's stages,
    ///   outermost first. A stage runs unless it is opt-in and not enabled, bears credentials and the
    ///   call goes to a foreign origin, or is one of the service's stages that the call skips.
    /// - A ``RequestStage`` prepares the request, then the rest of the chain runs; a ``ResponseStage``
    ///   processes the answer the rest of the chain gave (so response stages run innermost first); any
    ///   other stage intercepts, and decides itself whether and how often the rest runs.
    /// - The transport is the end: each exchange counts as one send, a cancelled call never reaches
    ///   it, and the follower (redirects) may take its answer further.
    /// - An error names the innermost stage it passed (the stage that threw it, or the transport); a
    ///   response stage's error carries the answer it was given.
    package nonisolated(nonsending) func referenceSend(
        _ request: Request,
        context: CallContext,
        additionalStages: [any Stage] = []
    ) async throws(SwitchyardError) -> Response {
        var context = context
        if context.serviceState == nil { context.serviceState = storage.serviceState }
        let links = additionalStages.map { (Link($0), false) } + storage.links.map { ($0, true) }
        let transport = storage.transport
        let follower = storage.follower
        let observes = transport.observesCallCancellation
        let exchange: NextStage = { request, context in
            try await Self.sendOnce(request, transport: transport, observes: observes, context: context)
        }
        @Sendable func pass(_ index: Int, _ request: Request, _ context: CallContext) async throws -> Response {
            guard index < links.count else {
                context.control.recordTransportSend(request)
                let response = try await exchange(request, context)
                guard let follower, follower.follows(response) else { return response }
                return try await follower.follow(response, for: request, context: context, send: exchange)
            }
            let (link, skippable) = links[index]
            guard link.runs(in: context, skippable: skippable) else { return try await pass(index + 1, request, context) }
            let stage = link.stage
            if stage is any RequestStage {
                var request = request
                do {
                    if let stage = stage as? any SynchronousRequestStage {
                        try stage.prepareSynchronously(&request, context: context)
                    } else if let stage = stage as? any RequestStage {
                        try await stage.prepare(&request, context: context)
                    }
                } catch {
                    throw SwitchyardError.wrapping(error, stage: link.id, in: context)
                }
                return try await pass(index + 1, request, context)
            }
            if stage is any ResponseStage {
                var response = try await pass(index + 1, request, context)
                do {
                    if let stage = stage as? any SynchronousResponseStage {
                        try stage.processSynchronously(&response, for: request, context: context)
                    } else if let stage = stage as? any ResponseStage {
                        try await stage.process(&response, for: request, context: context)
                    }
                } catch {
                    throw SwitchyardError.wrapping(error, stage: link.id, in: context).carrying(response)
                }
                return response
            }
            do {
                return try await stage.intercept(request, context: context) { request, context in
                    try await pass(index + 1, request, context)
                }
            } catch {
                throw SwitchyardError.wrapping(error, stage: link.id, in: context)
            }
        }
        do {
            return try await pass(0, request, context)
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
}

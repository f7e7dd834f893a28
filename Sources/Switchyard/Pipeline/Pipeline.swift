/// A service's stages folded, once, into a single chain that ends in its transport.
///
/// A pipeline is built when a service is registered and reused by every call. Calls can still
/// adjust it without rebuilding it: a call may skip stages by name (``CallContext/skippedStages``,
/// checked as the chain runs) and may wrap additional stages of its own around it (they run
/// *outside* the service's stages, so signing, encryption and logging see their effect).
///
/// ```swift
/// print(try registry.pipeline(for: .users))
/// // users: [1] RequestIDHeader → [2] Logging → [3] Signing → transport AsyncHTTPClientTransport
/// ```
public struct Pipeline: Sendable, CustomStringConvertible {
    /// The service this pipeline belongs to.
    public let serviceID: ServiceID
    /// The names of the stages, outermost first (the order requests pass them).
    public let stageNames: [String]
    /// The name of the transport at the end.
    public let transportName: String
    private let entry: NextStage

    /// Folds stages and a transport into a pipeline.
    ///
    /// - Parameters:
    ///   - serviceID: the service the pipeline belongs to.
    ///   - stages: the stages, outermost first.
    ///   - transport: the transport at the end.
    public init(serviceID: ServiceID, stages: [any Middleware], transport: any Transport) {
        self.serviceID = serviceID
        self.stageNames = stages.map(\.name)
        self.transportName = transport.name
        self.entry = Self.fold(stages, around: Self.terminal(transport), skippable: true)
    }

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
        additionalStages: [any Middleware] = []
    ) async throws(SwitchyardError) -> Response {
        do {
            if additionalStages.isEmpty { return try await entry(request, context) }
            let chain = Self.fold(additionalStages, around: entry, skippable: false)
            return try await chain(request, context)
        } catch {
            throw SwitchyardError.wrapping(error, stage: nil).filling(from: context)
        }
    }

    /// `service: [1] A → [2] B → transport T`.
    public var description: String {
        let stages = stageNames.enumerated().map { "[\($0.offset + 1)] \($0.element)" }
        return "\(serviceID): " + (stages + ["transport \(transportName)"]).joined(separator: " → ")
    }

    /// Wraps `inner` in `stages`, outermost first.
    ///
    /// Runs of consecutive ``RequestStage``s are folded into one link that calls their `prepare`
    /// methods in order and then `next` once; runs of ``ResponseStage``s into one link that calls
    /// `next` once and then their `process` methods in reverse order. The order and the results are
    /// exactly those of one link per stage, with fewer asynchronous frames and one copy of the
    /// request instead of one per stage.
    private static func fold(_ stages: [any Middleware], around inner: @escaping NextStage, skippable: Bool) -> NextStage {
        var next = inner
        var index = stages.count
        while index > 0 {
            let rest = next
            if stages[index - 1] is any RequestStage {
                var run: [(name: String, stage: any RequestStage)] = []
                while index > 0, let stage = stages[index - 1] as? any RequestStage {
                    run.insert((stage.name, stage), at: 0)
                    index -= 1
                }
                next = requestLink(run, rest: rest, skippable: skippable)
            } else if stages[index - 1] is any ResponseStage {
                var run: [(name: String, stage: any ResponseStage)] = []
                while index > 0, let stage = stages[index - 1] as? any ResponseStage {
                    run.insert((stage.name, stage), at: 0)
                    index -= 1
                }
                next = responseLink(run, rest: rest, skippable: skippable)
            } else {
                let stage = stages[index - 1]
                index -= 1
                next = link(stage, name: stage.name, rest: rest, skippable: skippable)
            }
        }
        return next
    }

    /// One general stage.
    private static func link(_ stage: any Middleware, name: String, rest: @escaping NextStage, skippable: Bool) -> NextStage {
        { (request: consuming Request, context: CallContext) in
            if skippable, !context.skippedStages.isEmpty, context.skippedStages.contains(name) {
                return try await rest(request, context)
            }
            do {
                return try await stage.intercept(request, context: context, next: rest)
            } catch {
                throw SwitchyardError.wrapping(error, stage: name, in: context)
            }
        }
    }

    /// A run of request-only stages, outermost first.
    private static func requestLink(
        _ run: [(name: String, stage: any RequestStage)],
        rest: @escaping NextStage,
        skippable: Bool
    ) -> NextStage {
        { (request: consuming Request, context: CallContext) in
            let skipping = skippable && !context.skippedStages.isEmpty
            for (name, stage) in run where !(skipping && context.skippedStages.contains(name)) {
                do {
                    try await stage.prepare(&request, context: context)
                } catch {
                    throw SwitchyardError.wrapping(error, stage: name, in: context)
                }
            }
            return try await rest(request, context)
        }
    }

    /// A run of response-only stages, outermost first; their `process` methods run innermost first.
    private static func responseLink(
        _ run: [(name: String, stage: any ResponseStage)],
        rest: @escaping NextStage,
        skippable: Bool
    ) -> NextStage {
        { (request: consuming Request, context: CallContext) in
            let sent = request
            var response = try await rest(sent, context)
            let skipping = skippable && !context.skippedStages.isEmpty
            for (name, stage) in run.reversed() where !(skipping && context.skippedStages.contains(name)) {
                do {
                    try await stage.process(&response, for: sent, context: context)
                } catch {
                    throw SwitchyardError.wrapping(error, stage: name, in: context)
                }
            }
            return response
        }
    }

    /// The innermost link: counts the send and calls the transport.
    private static func terminal(_ transport: any Transport) -> NextStage {
        { (request: consuming Request, context: CallContext) in
            context.counters.recordTransportSend()
            do {
                try Task.checkCancellation()
                return try await transport.send(request, context: context)
            } catch {
                throw SwitchyardError.wrapping(error, as: .transport, stage: "transport", in: context)
            }
        }
    }
}

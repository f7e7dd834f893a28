import HTTPTypes

extension CallOptions {
    /// ``waitsForConnectivity``: a later setting wins; it does not change what the server answers.
    enum WaitsForConnectivity: ClientOptionKey {
        typealias Value = Bool
        static let name = "waitsForConnectivity"
    }

    /// Whether a call made while the service cannot be reached waits for it instead of failing at
    /// once with ``SwitchyardError/Code/transport``: the call tries again each time the client's
    /// ``Connectivity`` becomes reachable, and at least every few seconds (each try is a probe),
    /// until it gets an answer — bounded by its ``deadline`` (it then fails with
    /// ``SwitchyardError/Code/timeout``) and ended by cancelling its task.
    ///
    /// ```swift
    /// var options = CallOptions(deadline: .seconds(60))
    /// options.waitsForConnectivity = true
    /// let receipt = try await client.send(PlaceOrder(order), options: options)
    /// ```
    ///
    /// While it waits between tries the call is not in flight: cancelling by id, tag or service
    /// reaches it only during a try.
    public var waitsForConnectivity: Bool {
        get { self[option: WaitsForConnectivity.self] ?? false }
        set { self[option: WaitsForConnectivity.self] = newValue ? true : nil }
    }
}

extension APIClient {
    /// The longest wait between a waiting call's tries when nothing reports that connectivity returned.
    static let longestConnectivityProbe = Duration.seconds(5)

    /// Runs the call (``fly(_:spec:context:options:pipeline:)``), telling ``connectivity`` what the
    /// transport learned, and — for a call that waits for connectivity — trying again while
    /// connections fail.
    nonisolated(nonsending) func flyNotingConnectivity(
        _ request: consuming Request,
        spec: CallSpec,
        context: CallContext,
        options: CallOptions,
        pipeline: Pipeline
    ) async throws(SwitchyardError) -> (Response, CallControl) {
        guard options.sets(CallOptions.WaitsForConnectivity.self) else {
            do {
                let flown = try await fly(consume request, spec: spec, context: context, options: options, pipeline: pipeline)
                connectivity.noteAnswer()
                return flown
            } catch {
                if error.code == .transport { connectivity.noteConnectionFailure() }
                throw error
            }
        }
        var wait = Duration.milliseconds(100)
        while true {
            await connectivity.waitWhileUnreachable(upTo: min(wait, remaining(context) ?? wait))
            if Task.isCancelled {
                throw SwitchyardError(code: .cancelled, message: "the call was cancelled while it waited for connectivity")
                    .filling(from: context)
            }
            if let left = remaining(context), left <= .zero {
                throw SwitchyardError(code: .timeout, message: "the call's deadline passed while it waited for connectivity")
                    .filling(from: context)
            }
            do {
                let flown = try await fly(copy request, spec: spec, context: context, options: options, pipeline: pipeline)
                connectivity.noteAnswer()
                return flown
            } catch  where error.code == .transport {
                connectivity.noteConnectionFailure()
                wait = min(wait * 2, Self.longestConnectivityProbe)
            }
        }
    }

    /// What is left of the call's deadline, if it has one.
    private func remaining(_ context: CallContext) -> Duration? {
        context.deadlineOffset.map { $0 - CallClock.now }
    }
}

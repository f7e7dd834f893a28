public import Logging

/// Per-call data that travels through a pipeline beside the request.
///
/// Stages read the context to learn which call they are serving and may pass a changed copy to
/// `next` (a retry stage increments ``attempt``; an authentication stage may store a token under a
/// ``CallContextKey``). The context is a value: a change made by one stage is seen only by the stages
/// inside it, never by the stages outside or by other calls.
///
/// ```swift
/// enum TraceParent: CallContextKey { typealias Value = String }
///
/// var context = context
/// context[TraceParent.self] = "00-4bf92f…-01"
/// return try await next(request, context)
/// ```
public struct CallContext: Sendable {
    /// Every field, behind one reference: copying a context (into a stage, a closure or a call's
    /// result) is one retain, and a change copies the fields only while another copy shares them.
    private var storage: CopyOnWrite<Fields>

    /// The call's process-unique identifier.
    public var requestID: RequestID { storage.value.requestID }
    /// The service the call is addressed to.
    public var serviceID: ServiceID { storage.value.serviceID }
    /// The endpoint's name: the discrete endpoint's type name or the intensive call's path template.
    public var endpointName: String {
        get { storage.value.endpointName }
        _modify { yield &storage.value.endpointName }
    }
    /// Labels for finding and grouping calls.
    public var tags: Set<RequestTag> {
        get { storage.value.tags }
        _modify { yield &storage.value.tags }
    }
    /// The attempt number, starting at 1; a stage that sends the request again passes `attempt + 1`.
    public var attempt: Int {
        get { storage.value.attempt }
        _modify { yield &storage.value.attempt }
    }
    /// The environment whose base URL the request was addressed to.
    public var environment: ServerEnvironment {
        get { storage.value.environment }
        _modify { yield &storage.value.environment }
    }
    /// How long one attempt may take before the transport gives up, or `nil` for no limit.
    public var timeout: Duration? {
        get { storage.value.timeout }
        _modify { yield &storage.value.timeout }
    }
    /// When the whole call — every attempt and every wait between them — must be over; `nil` for
    /// no overall limit. Set from `CallOptions.deadline` or `ServiceDefaults.deadline`.
    public var deadline: ContinuousClock.Instant? {
        get { deadlineOffset.map(CallClock.instant) }
        set { deadlineOffset = newValue.map(CallClock.offset) }
    }
    /// ``deadline`` as an offset on ``CallClock``, which keeps the fields of fixed layout.
    package var deadlineOffset: Duration? {
        get { storage.value.deadlineOffset }
        _modify { yield &storage.value.deadlineOffset }
    }
    /// The parameter encoding that was used to build the request (stages that add parameters use it).
    public var parameterEncoding: ParameterEncoding {
        get { storage.value.parameterEncoding }
        _modify { yield &storage.value.parameterEncoding }
    }
    /// The ids of the service's stages this call skips.
    public var skippedStages: Set<StageID> {
        get { storage.value.skippedStages }
        _modify { yield &storage.value.skippedStages }
    }
    /// The ids of the service's opt-in stages (``Stage/optIn()``) this call enables.
    public var enabledStages: Set<StageID> {
        get { storage.value.enabledStages }
        _modify { yield &storage.value.enabledStages }
    }
    /// The logger stages should use.
    public var logger: Logger {
        get { storage.value.logger }
        _modify { yield &storage.value.logger }
    }
    /// Whether the request goes to an origin other than the service's (allowed by
    /// `CallOptions.allowsForeignOrigin`): credential-bearing stages do not run for it.
    public package(set) var isForeignOrigin: Bool {
        get { storage.value.isForeignOrigin }
        _modify { yield &storage.value.isForeignOrigin }
    }
    /// What the features built on the kernel keep per service for a call (the client sets it from
    /// its registry; sessions keep the service's credential sources here), opaque to the kernel.
    package var serviceState: (any AnyObject & Sendable)? {
        get { storage.value.serviceState }
        _modify { yield &storage.value.serviceState }
    }
    /// What every copy of this call's context shares: its cancellation by the client's cancel APIs,
    /// the count of transport sends, and its stage timings when recorded.
    public package(set) var control: CallControl {
        get { storage.value.control }
        _modify { yield &storage.value.control }
    }

    /// The fields, shared between copies until one of them changes.
    private struct Fields: Sendable {
        let requestID: RequestID
        let serviceID: ServiceID
        var endpointName: String
        var tags: Set<RequestTag>
        var attempt: Int
        var environment: ServerEnvironment
        var timeout: Duration?
        var deadlineOffset: Duration?
        var parameterEncoding: ParameterEncoding
        var skippedStages: Set<StageID>
        var enabledStages: Set<StageID>
        var logger: Logger
        var isForeignOrigin = false
        var serviceState: (any AnyObject & Sendable)?
        var control: CallControl
        /// Values stored under ``CallContextKey`` types: a handful per call at most (one per key
        /// type), so a scan costs less than hashing into a dictionary that must be allocated.
        var values: [(key: ObjectIdentifier, value: any Sendable)] = []
    }

    /// Creates a context: stages, tests and harnesses make their own; the client makes a call's in one step.
    ///
    /// - Parameters:
    ///   - requestID: the call's identifier; a fresh one by default.
    ///   - serviceID: the service the call is addressed to.
    ///   - endpointName: the endpoint's name.
    ///   - tags: labels for the call.
    ///   - attempt: the attempt number, starting at 1.
    ///   - environment: the environment in force.
    ///   - timeout: the per-attempt timeout.
    ///   - parameterEncoding: the encoding the request was built with.
    ///   - skippedStages: ids of service stages to skip.
    ///   - enabledStages: ids of opt-in service stages to run.
    ///   - logger: the logger for stages.
    public init(
        requestID: RequestID = .next(),
        serviceID: ServiceID,
        endpointName: String = "",
        tags: Set<RequestTag> = [],
        attempt: Int = 1,
        environment: ServerEnvironment = .release,
        timeout: Duration? = nil,
        parameterEncoding: ParameterEncoding = .automatic,
        skippedStages: Set<StageID> = [],
        enabledStages: Set<StageID> = [],
        logger: Logger = CallContext.disabledLogger
    ) {
        self.init(
            requestID: requestID,
            serviceID: serviceID,
            endpointName: endpointName,
            tags: tags,
            attempt: attempt,
            environment: environment,
            timeout: timeout,
            deadlineOffset: nil,
            parameterEncoding: parameterEncoding,
            skippedStages: skippedStages,
            enabledStages: enabledStages,
            logger: logger,
            serviceState: nil,
            control: CallControl()
        )
    }

    /// Creates a client call's context with everything the client knows before the first stage
    /// runs, in one step: no field is written twice.
    package init(
        requestID: RequestID,
        serviceID: ServiceID,
        endpointName: String,
        tags: Set<RequestTag>,
        attempt: Int = 1,
        environment: ServerEnvironment,
        timeout: Duration?,
        deadlineOffset: Duration?,
        parameterEncoding: ParameterEncoding,
        skippedStages: Set<StageID>,
        enabledStages: Set<StageID>,
        logger: Logger,
        serviceState: (any AnyObject & Sendable)?,
        control: CallControl
    ) {
        storage = CopyOnWrite(
            Fields(
                requestID: requestID,
                serviceID: serviceID,
                endpointName: endpointName,
                tags: tags,
                attempt: attempt,
                environment: environment,
                timeout: timeout,
                deadlineOffset: deadlineOffset,
                parameterEncoding: parameterEncoding,
                skippedStages: skippedStages,
                enabledStages: enabledStages,
                logger: logger,
                serviceState: serviceState,
                control: control
            )
        )
    }

    /// Reads or writes a value stored under a typed key; `nil` when nothing is stored.
    public subscript<Key: CallContextKey>(key: Key.Type) -> Key.Value? {
        get {
            let id = ObjectIdentifier(key)
            // By index: a loop over the entries would copy each boxed value it passes.
            for index in storage.value.values.indices where storage.value.values[index].key == id {
                return storage.value.values[index].value as? Key.Value
            }
            return nil
        }
        set {
            let id = ObjectIdentifier(key)
            guard let index = storage.value.values.firstIndex(where: { $0.key == id }) else {
                if let newValue { storage.value.values.append((id, newValue)) }
                return
            }
            if let newValue { storage.value.values[index].value = newValue } else { storage.value.values.remove(at: index) }
        }
    }

    /// Stores `value`, already boxed, under the ``CallContextKey`` type whose identifier is `key`, as
    /// the subscript stores a value of that key's type: how the client writes a call's options without
    /// unboxing each and boxing it again. `value` must be of the key's `Value` type.
    package mutating func setValue(_ value: any Sendable, forKey key: ObjectIdentifier) {
        if let index = storage.value.values.firstIndex(where: { $0.key == key }) {
            storage.value.values[index].value = value
        } else {
            storage.value.values.append((key, value))
        }
    }

    /// A copy with ``attempt`` incremented: what a stage passes to `next` when it sends again.
    public func nextAttempt() -> CallContext {
        var copy = self
        copy.attempt += 1
        return copy
    }

    /// How many times this call has reached the transport so far.
    public var transportSends: Int { control.transportSends }

    /// The time this attempt may take: ``timeout``, shortened to what is left before ``deadline``
    /// (never negative); `nil` when neither is set. Transports bound each attempt by it.
    public var effectiveTimeout: Duration? {
        guard let deadlineOffset else { return timeout }
        let remaining = max(.zero, deadlineOffset - CallClock.now)
        return timeout.map { min($0, remaining) } ?? remaining
    }

    /// Whether the call's ``deadline`` has passed.
    public var isPastDeadline: Bool { deadlineOffset.map { CallClock.now >= $0 } ?? false }

    /// A logger that discards everything: the default when no logger is configured.
    public static let disabledLogger = Logger(label: "switchyard.disabled", factory: { _ in SwiftLogNoOpLogHandler() })
}

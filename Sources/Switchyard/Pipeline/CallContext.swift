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
    private var storage: Storage

    /// The call's process-unique identifier.
    public var requestID: RequestID { storage.requestID }
    /// The service the call is addressed to.
    public var serviceID: ServiceID { storage.serviceID }
    /// The endpoint's name: the discrete endpoint's type name or the intensive call's path template.
    public var endpointName: String {
        get { storage.endpointName }
        _modify { yield &unique().endpointName }
    }
    /// Labels for finding and grouping calls.
    public var tags: Set<RequestTag> {
        get { storage.tags }
        _modify { yield &unique().tags }
    }
    /// The attempt number, starting at 1; a stage that sends the request again passes `attempt + 1`.
    public var attempt: Int {
        get { storage.attempt }
        _modify { yield &unique().attempt }
    }
    /// The environment whose base URL the request was addressed to.
    public var environment: ServerEnvironment {
        get { storage.environment }
        _modify { yield &unique().environment }
    }
    /// How long one attempt may take before the transport gives up, or `nil` for no limit.
    public var timeout: Duration? {
        get { storage.timeout }
        _modify { yield &unique().timeout }
    }
    /// When the whole call — every attempt and every wait between them — must be over; `nil` for
    /// no overall limit. Set from ``CallOptions/deadline`` or ``ServiceDefaults/deadline``.
    public var deadline: ContinuousClock.Instant? {
        get { deadlineOffset.map(CallClock.instant) }
        set { deadlineOffset = newValue.map(CallClock.offset) }
    }
    /// ``deadline`` as an offset on ``CallClock``, which keeps the fields of fixed layout.
    var deadlineOffset: Duration? {
        get { storage.deadlineOffset }
        _modify { yield &unique().deadlineOffset }
    }
    /// The parameter encoding that was used to build the request (stages that add parameters use it).
    public var parameterEncoding: ParameterEncoding {
        get { storage.parameterEncoding }
        _modify { yield &unique().parameterEncoding }
    }
    /// The ids of the service's stages this call skips.
    public var skippedStages: Set<StageID> {
        get { storage.skippedStages }
        _modify { yield &unique().skippedStages }
    }
    /// The ids of the service's opt-in stages (``Stage/optIn()``) this call enables.
    public var enabledStages: Set<StageID> {
        get { storage.enabledStages }
        _modify { yield &unique().enabledStages }
    }
    /// The logger stages should use.
    public var logger: Logger {
        get { storage.logger }
        _modify { yield &unique().logger }
    }
    /// Whether the request goes to an origin other than the service's (allowed by
    /// ``CallOptions/allowsForeignOrigin``): credential-bearing stages do not run for it.
    public internal(set) var isForeignOrigin: Bool {
        get { storage.isForeignOrigin }
        _modify { yield &unique().isForeignOrigin }
    }
    /// The account the call is made for, when the app names accounts (``CallOptions/account``): part
    /// of the call's ``CredentialPartition``.
    public var account: String? {
        get { storage.account }
        _modify { yield &unique().account }
    }
    /// The service's stages that put credentials on calls, set by the pipeline for every call; caches
    /// and the same-request check ask them which credentials a request will carry.
    public internal(set) var credentialSources: [any CredentialSource] {
        get { storage.credentialSources }
        _modify { yield &unique().credentialSources }
    }
    /// What every copy of this call's context shares: its cancellation by the client's cancel APIs,
    /// the count of transport sends, and its stage timings when recorded.
    public internal(set) var control: CallControl {
        get { storage.control }
        _modify { yield &unique().control }
    }

    /// The fields, shared between copies until one of them changes.
    private final class Storage: @unchecked Sendable {
        // Unchecked: a storage is changed only through `unique()`, while no other copy can see it.
        let requestID: RequestID
        let serviceID: ServiceID
        @exclusivity(unchecked) var endpointName: String
        @exclusivity(unchecked) var tags: Set<RequestTag>
        @exclusivity(unchecked) var attempt: Int
        @exclusivity(unchecked) var environment: ServerEnvironment
        @exclusivity(unchecked) var timeout: Duration?
        @exclusivity(unchecked) var deadlineOffset: Duration?
        @exclusivity(unchecked) var parameterEncoding: ParameterEncoding
        @exclusivity(unchecked) var skippedStages: Set<StageID>
        @exclusivity(unchecked) var enabledStages: Set<StageID>
        @exclusivity(unchecked) var logger: Logger
        @exclusivity(unchecked) var isForeignOrigin = false
        @exclusivity(unchecked) var account: String?
        @exclusivity(unchecked) var credentialSources: [any CredentialSource] = []
        @exclusivity(unchecked) var control: CallControl
        /// Values stored under ``CallContextKey`` types: a handful per call at most (one per key
        /// type), so a scan costs less than hashing into a dictionary that must be allocated.
        @exclusivity(unchecked) var values: [(key: ObjectIdentifier, value: any Sendable)] = []

        init(
            requestID: RequestID,
            serviceID: ServiceID,
            endpointName: String,
            tags: Set<RequestTag>,
            attempt: Int,
            environment: ServerEnvironment,
            timeout: Duration?,
            parameterEncoding: ParameterEncoding,
            skippedStages: Set<StageID>,
            enabledStages: Set<StageID>,
            logger: Logger,
            control: CallControl
        ) {
            self.requestID = requestID
            self.serviceID = serviceID
            self.endpointName = endpointName
            self.tags = tags
            self.attempt = attempt
            self.environment = environment
            self.timeout = timeout
            self.parameterEncoding = parameterEncoding
            self.skippedStages = skippedStages
            self.enabledStages = enabledStages
            self.logger = logger
            self.control = control
        }

        /// A storage with the same fields, for a copy about to change.
        func copy() -> Storage {
            let copy = Storage(
                requestID: requestID,
                serviceID: serviceID,
                endpointName: endpointName,
                tags: tags,
                attempt: attempt,
                environment: environment,
                timeout: timeout,
                parameterEncoding: parameterEncoding,
                skippedStages: skippedStages,
                enabledStages: enabledStages,
                logger: logger,
                control: control
            )
            copy.deadlineOffset = deadlineOffset
            copy.isForeignOrigin = isForeignOrigin
            copy.account = account
            copy.credentialSources = credentialSources
            copy.values = values
            return copy
        }
    }

    /// The storage, copied first when another copy of this context shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// Creates a context. The client makes one per call; tests and harnesses make their own.
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
        storage = Storage(
            requestID: requestID,
            serviceID: serviceID,
            endpointName: endpointName,
            tags: tags,
            attempt: attempt,
            environment: environment,
            timeout: timeout,
            parameterEncoding: parameterEncoding,
            skippedStages: skippedStages,
            enabledStages: enabledStages,
            logger: logger,
            control: CallControl()
        )
    }

    /// Reads or writes a value stored under a typed key; `nil` when nothing is stored.
    public subscript<Key: CallContextKey>(key: Key.Type) -> Key.Value? {
        get {
            let id = ObjectIdentifier(key)
            for entry in storage.values where entry.key == id { return entry.value as? Key.Value }
            return nil
        }
        set {
            let id = ObjectIdentifier(key)
            let storage = unique()
            if let index = storage.values.firstIndex(where: { $0.key == id }) {
                if let newValue { storage.values[index].value = newValue } else { storage.values.remove(at: index) }
            } else if let newValue {
                storage.values.append((id, newValue))
            }
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

public import HTTPTypes
public import Logging
@_spi(SwitchyardKernel) import SwitchyardCore

/// Per-call adjustments: timeout, tags, extra header fields, extra stages, stages to skip or enable,
/// context values.
///
/// An endpoint declares its options; the options passed to ``APIClient/send(_:options:)`` are
/// applied on top (their timeout and logger win, tags, stages and progress blocks are added, header
/// fields of the same name replace the endpoint's).
///
/// ```swift
/// var options = CallOptions(timeout: .seconds(5), tags: ["profile-screen"])
/// options.skippedStages = [.commonParameters]               // this call sends no common parameters
/// options.enable(.encryption)                               // an opt-in stage runs for this call
/// options.retry(maxAttempts: 5)                             // needs the service's RetryStage
/// ```
///
/// Skipping or enabling a stage the service does not have fails the call with
/// ``SwitchyardError/Code/invalidRequest``, and so does an option that only one stage can honour
/// (``retry(maxAttempts:)``, ``cache(_:version:)``, ``logLevel(_:)`` …) when the service has no such stage or
/// the call skips it — an option is never silently ignored.
public struct CallOptions: Sendable {
    /// The per-attempt timeout; `nil` keeps the service's.
    public var timeout: Duration? {
        get { storage.value.timeout }
        _modify { yield &storage.value.timeout }
    }
    /// The longest the whole call may take, every attempt and retry delay included; replaces the
    /// service's ``ServiceDefaults/deadline``.
    public var deadline: Duration? {
        get { storage.value.deadline }
        _modify { yield &storage.value.deadline }
    }
    /// Labels for the call.
    public var tags: Set<RequestTag> {
        get { storage.value.tags }
        _modify { yield &storage.value.tags }
    }
    /// Header fields for this call; they replace fields of the same name from the service and endpoint.
    public var headerFields: HTTPFields {
        get { storage.value.headerFields }
        _modify { yield &storage.value.headerFields }
    }
    /// Stages for this call only. They run outside (before, on the way in) the service's stages,
    /// in the order given, so the service's stages see what they changed.
    public var additionalStages: [any Stage] {
        get { storage.value.additionalStages }
        _modify { yield &storage.value.additionalStages }
    }
    /// Ids of the service's stages this call skips.
    public var skippedStages: Set<StageID> {
        get { storage.value.skippedStages }
        _modify { yield &storage.value.skippedStages }
    }
    /// Ids of the service's opt-in stages (``Stage/optIn()``) this call enables.
    public var enabledStages: Set<StageID> {
        get { storage.value.enabledStages }
        _modify { yield &storage.value.enabledStages }
    }
    /// The stages this call's options need, with the names of the options that need each.
    var requiredStages: [StageID: String] {
        var required: [StageID: String] = [:]
        for option in storage.value.options.values.sorted(by: { $0.name < $1.name }) {
            required[option.stage] = required[option.stage].map { $0 + ", " + option.name } ?? option.name
        }
        return required
    }
    /// Whether `predicate` holds for the stage each option this call sets needs (a stage may come more
    /// than once): what ``requiredStages`` gathers, without building it. Each stage is read in place,
    /// not out of a copy of its option.
    func allOptionStages(satisfy predicate: (StageID) -> Bool) -> Bool {
        let options = storage.value.options
        for index in options.values.indices where !predicate(options.values[index].stage) { return false }
        return true
    }
    /// Whether this call sets any stage option: cheaper to ask than ``requiredStages``, which it
    /// builds.
    var setsStageOptions: Bool { !storage.value.options.isEmpty }
    /// The stages' options this call sets, by key.
    private var options: [ObjectIdentifier: StoredOption] {
        get { storage.value.options }
        _modify { yield &storage.value.options }
    }
    /// Statuses that count as success for this call; `nil` keeps the service's.
    public var acceptableStatusCodes: ClosedRange<Int>? {
        get { storage.value.acceptableStatusCodes }
        _modify { yield &storage.value.acceptableStatusCodes }
    }
    /// The logger for this call; `nil` keeps the client's.
    public var logger: Logger? {
        get { storage.value.logger }
        _modify { yield &storage.value.logger }
    }
    /// Whether the call may go to an absolute URL on another origin than the service's base URL (a
    /// `next` or download link taken from a response). Such a call never carries the service's
    /// secrets — credential-bearing stages (``CredentialBearingStage``) do not run for it — and never
    /// goes over plain `http` from an `https` service. Without it, such a call fails with
    /// ``SwitchyardError/Code/invalidRequest``. `false` by default.
    public var allowsForeignOrigin: Bool {
        get { storage.value.allowsForeignOrigin }
        _modify { yield &storage.value.allowsForeignOrigin }
    }
    /// The account the call is made for, for apps and servers that serve several users with one
    /// client: calls for different accounts never share cached responses or a network exchange, and
    /// ``APIClient/endSession(for:account:)`` can end one account's session alone. `nil` keeps the
    /// endpoint's (or none).
    public var account: String? {
        get { storage.value.account }
        _modify { yield &storage.value.account }
    }
    /// What to do when an identical call is in flight; `nil` keeps the endpoint's choice (or allow).
    public var sameRequest: SameRequestPolicy? {
        get { storage.value.sameRequest }
        _modify { yield &storage.value.sameRequest }
    }
    /// Called as the request body goes out, with the bytes sent so far and the body's size when it
    /// is known — the per-call `uploadProgress` block, no ``Accessory`` needed.
    ///
    /// It is called in order, on the transport's task, each time the transport reports (a streamed
    /// body chunk by chunk; a body in memory when it has gone out): return quickly, and hand the value
    /// to the main actor for a UI. A retried attempt counts from zero again. The options of
    /// ``APIClient/send(_:options:queue:completion:)`` call it on the completion's queue instead.
    ///
    /// ```swift
    /// var options = CallOptions()
    /// options.uploadProgress = { progress in print("sent", progress) }   // "sent 65536/262144 bytes (25%)"
    /// ```
    public var uploadProgress: (@Sendable (TransferProgress) -> Void)? {
        get { storage.value.uploadProgress }
        _modify { yield &storage.value.uploadProgress }
    }
    /// Called as the response body comes in, with the bytes received so far and the total when the
    /// server said it — the per-call `downloadProgress` block, no ``Accessory`` needed. A download to a
    /// file counts the whole resource, continuing where a resumed attempt started. Called the way
    /// ``uploadProgress`` is.
    public var downloadProgress: (@Sendable (TransferProgress) -> Void)? {
        get { storage.value.downloadProgress }
        _modify { yield &storage.value.downloadProgress }
    }
    /// The cache policy chosen with ``cache(_:version:)``; `nil` when these options choose none (the
    /// ``CacheStage``'s default then applies).
    public var cachePolicy: CachePolicy? { self[option: CacheStage.CallPolicy.self] }
    /// The scope the call belongs to (held weakly): releasing it cancels the call.
    public var scope: RequestScope? {
        get { weakScope?.scope }
        set { weakScope = newValue.map { WeakScope(scope: $0) } }
    }
    /// Whether the call records each stage's own time and the transport's: returned in
    /// ``CallResult/stageTimings`` and logged at trace level. Off by default; costs two clock reads
    /// per stage when on.
    public var recordsStageTimings: Bool {
        get { storage.value.recordsStageTimings }
        _modify { yield &storage.value.recordsStageTimings }
    }
    /// Whether the call keeps the response body as the transport received it, before any stage
    /// rewrote it, in ``CallResult/rawBody``; `nil` keeps the service's choice
    /// (``ServiceDefaults/keepsRawBody``, off unless changed). It holds a second copy of the body for
    /// as long as the result lives: turn it on where the bytes are needed (a signature check of your
    /// own, a bug report).
    public var keepsRawBody: Bool? {
        get { storage.value.keepsRawBody }
        _modify { yield &storage.value.keepsRawBody }
    }
    private var weakScope: WeakScope? {
        get { storage.value.weakScope }
        _modify { yield &storage.value.weakScope }
    }
    private var contextWriters: [@Sendable (inout CallContext) -> Void] {
        get { storage.value.contextWriters }
        _modify { yield &storage.value.contextWriters }
    }

    /// Every field, behind one reference: passing options along a call copies one reference, and a
    /// change copies the fields only while another copy shares them.
    private var storage: CopyOnWrite<Fields>

    /// The fields, shared between copies until one of them changes.
    private struct Fields: Sendable {
        var timeout: Duration? = nil
        var deadline: Duration? = nil
        var tags: Set<RequestTag> = []
        var headerFields: HTTPFields = [:]
        var additionalStages: [any Stage] = []
        var skippedStages: Set<StageID> = []
        var enabledStages: Set<StageID> = []
        var options: [ObjectIdentifier: StoredOption] = [:]
        var acceptableStatusCodes: ClosedRange<Int>? = nil
        var logger: Logger? = nil
        var allowsForeignOrigin: Bool = false
        var account: String? = nil
        var sameRequest: SameRequestPolicy? = nil
        var uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil
        var downloadProgress: (@Sendable (TransferProgress) -> Void)? = nil
        var recordsStageTimings: Bool = false
        var keepsRawBody: Bool? = nil
        var weakScope: WeakScope? = nil
        var contextWriters: [@Sendable (inout CallContext) -> Void] = []
    }

    /// The storage of options that set nothing, shared by every `CallOptions()`.
    private static let empty = CopyOnWrite(Fields())

    /// Creates options.
    public init(
        timeout: Duration? = nil,
        deadline: Duration? = nil,
        tags: Set<RequestTag> = [],
        headerFields: HTTPFields = [:],
        additionalStages: [any Stage] = [],
        skippedStages: Set<StageID> = [],
        enabledStages: Set<StageID> = [],
        acceptableStatusCodes: ClosedRange<Int>? = nil,
        logger: Logger? = nil
    ) {
        storage = Self.empty
        // Options that set nothing share one storage; each value given is written into a copy.
        if let timeout { self.timeout = timeout }
        if let deadline { self.deadline = deadline }
        if !tags.isEmpty { self.tags = tags }
        if !headerFields.isEmpty { self.headerFields = headerFields }
        if !additionalStages.isEmpty { self.additionalStages = additionalStages }
        if !skippedStages.isEmpty { self.skippedStages = skippedStages }
        if !enabledStages.isEmpty { self.enabledStages = enabledStages }
        if let acceptableStatusCodes { self.acceptableStatusCodes = acceptableStatusCodes }
        if let logger { self.logger = logger }
    }

    /// Runs the service's opt-in stage `stage` for this call.
    public mutating func enable(_ stage: StageID) {
        enabledStages.insert(stage)
    }

    /// A stage's option for this call, read back or set; setting `nil` removes it. The call then
    /// needs the option's stage (``CallOptionKey/stage``): without it in the service (with this call's
    /// additional stages), or when the call skips it or leaves it, being opt-in, disabled, the call
    /// fails with ``SwitchyardError/Code/invalidRequest`` naming the stage and the option.
    ///
    /// ```swift
    /// options[option: RetryStage.MaxAttempts.self] = 5     // what options.retry(maxAttempts: 5) does
    /// let level = options[option: LoggingStage.CallLevel.self]
    /// ```
    public subscript<Key: CallOptionKey>(option key: Key.Type) -> Key.Value? {
        get { options[ObjectIdentifier(key)]?.value as? Key.Value }
        set { options[ObjectIdentifier(key)] = newValue.map { StoredOption(key, $0) } }
    }

    /// What this call's stage options add to its identity: one line per option that separates
    /// calls, by name.
    var optionIdentity: String {
        options.values.compactMap { option in option.identity(option.value).map { option.name + "=" + $0 } }.sorted().joined(
            separator: "\u{1F}"
        )
    }

    /// Stores a value in the call's ``CallContext`` under a typed key.
    public mutating func setContextValue<Key: CallContextKey>(_ value: Key.Value, for key: Key.Type) {
        contextWriters.append { $0[key] = value }
    }

    /// These options with `other` applied on top.
    public func applying(_ other: CallOptions) -> CallOptions {
        // Most calls adjust only one side: an endpoint without options of its own, or a call that
        // passes none. Merging with nothing gives the other side unchanged.
        if isEmpty { return other }
        if other.isEmpty { return self }
        var merged = self
        merged.timeout = other.timeout ?? timeout
        merged.deadline = other.deadline ?? deadline
        merged.tags.formUnion(other.tags)
        merged.headerFields = headerFields.replacing(with: other.headerFields)
        merged.additionalStages += other.additionalStages
        merged.skippedStages.formUnion(other.skippedStages)
        merged.enabledStages.formUnion(other.enabledStages)
        for (key, option) in other.options { merged.options[key] = merged.options[key].map { $0.merge($0, option) } ?? option }
        merged.acceptableStatusCodes = other.acceptableStatusCodes ?? acceptableStatusCodes
        merged.logger = other.logger ?? logger
        merged.sameRequest = other.sameRequest ?? sameRequest
        merged.account = other.account ?? account
        merged.allowsForeignOrigin = allowsForeignOrigin || other.allowsForeignOrigin
        merged.weakScope = other.weakScope ?? weakScope
        merged.recordsStageTimings = recordsStageTimings || other.recordsStageTimings
        merged.keepsRawBody = other.keepsRawBody ?? keepsRawBody
        merged.contextWriters += other.contextWriters
        merged.uploadProgress = Self.both(uploadProgress, other.uploadProgress)
        merged.downloadProgress = Self.both(downloadProgress, other.downloadProgress)
        return merged
    }

    /// Whether these options adjust nothing: merging them with others gives the others unchanged.
    var isEmpty: Bool {
        storage.isShared(with: Self.empty)
            || (timeout == nil && deadline == nil && tags.isEmpty && headerFields.isEmpty && additionalStages.isEmpty
                && skippedStages.isEmpty && enabledStages.isEmpty && options.isEmpty && acceptableStatusCodes == nil
                && logger == nil && sameRequest == nil && account == nil && !allowsForeignOrigin && weakScope == nil
                && !recordsStageTimings && keepsRawBody == nil && contextWriters.isEmpty && uploadProgress == nil
                && downloadProgress == nil)
    }

    /// Whether the options store context values (``setContextValue(_:for:)``).
    var setsContextValues: Bool { !contextWriters.isEmpty }

    /// Whether the options name a scope, released since or not (read without loading the scope).
    var namesScope: Bool { weakScope != nil }

    /// Whether the options named a scope that has since been released: the call must not start.
    var scopeWasReleased: Bool { weakScope != nil && weakScope?.scope == nil }

    /// Writes the stored context values, and the progress blocks as a `TransferObserver`, into a context.
    func writeValues(into context: inout CallContext) {
        // Stage options first: a value set with setContextValue under an option's key still wins,
        // as it did before options had a store.
        // Each value is stored as it is boxed, under its key's identifier (the options' own key).
        for (key, option) in options { context.setValue(option.value, forKey: key) }
        for write in contextWriters { write(&context) }
        if uploadProgress != nil || downloadProgress != nil {
            context.transferObserver = TransferObserver(
                sent: uploadProgress ?? { _ in },
                received: downloadProgress ?? { _ in }
            ).combined(with: context.transferObserver)
        }
    }

    /// A block that calls `first` and then `second`, whichever of them is set.
    private static func both(
        _ first: (@Sendable (TransferProgress) -> Void)?,
        _ second: (@Sendable (TransferProgress) -> Void)?
    ) -> (@Sendable (TransferProgress) -> Void)? {
        guard let first else { return second }
        guard let second else { return first }
        return {
            first($0)
            second($0)
        }
    }
}

extension HTTPFields {
    /// These fields with every name present in `overlay` replaced by the overlay's fields.
    func replacing(with overlay: HTTPFields) -> HTTPFields {
        guard !overlay.isEmpty else { return self }
        guard !isEmpty else { return overlay }
        var result = self
        var replaced = Set<HTTPField.Name>()
        for field in overlay where replaced.insert(field.name).inserted {
            result[fields: field.name] = overlay[fields: field.name]
        }
        return result
    }
}

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
        get { self[option: Timeout.self] }
        set { self[option: Timeout.self] = newValue }
    }
    /// The longest the whole call may take, every attempt and retry delay included; replaces the
    /// service's ``ServiceDefaults/deadline``.
    public var deadline: Duration? {
        get { self[option: Deadline.self] }
        set { self[option: Deadline.self] = newValue }
    }
    /// Labels for the call.
    public var tags: Set<RequestTag> {
        get { self[option: Tags.self] ?? [] }
        set { self[option: Tags.self] = newValue.isEmpty ? nil : newValue }
    }
    /// Header fields for this call; they replace fields of the same name from the service and endpoint.
    public var headerFields: HTTPFields {
        // `HTTPFields()`, not `[:]`: the literal builds its empty list through a call on every read.
        get { self[option: HeaderFields.self] ?? HTTPFields() }
        set { self[option: HeaderFields.self] = newValue.isEmpty ? nil : newValue }
    }
    /// Stages for this call only. They run outside (before, on the way in) the service's stages,
    /// in the order given, so the service's stages see what they changed.
    public var additionalStages: [any Stage] {
        get { self[option: AdditionalStages.self] ?? [] }
        set { self[option: AdditionalStages.self] = newValue.isEmpty ? nil : newValue }
    }
    /// Ids of the service's stages this call skips.
    public var skippedStages: Set<StageID> {
        get { self[option: SkippedStages.self] ?? [] }
        set { self[option: SkippedStages.self] = newValue.isEmpty ? nil : newValue }
    }
    /// Ids of the service's opt-in stages (``Stage/optIn()``) this call enables.
    public var enabledStages: Set<StageID> {
        get { self[option: EnabledStages.self] ?? [] }
        set { self[option: EnabledStages.self] = newValue.isEmpty ? nil : newValue }
    }
    /// The stages this call's options need, with the names of the options that need each.
    var requiredStages: [StageID: String] {
        var required: [StageID: String] = [:]
        for option in options.sorted(by: { $0.name < $1.name }) {
            guard let stage = option.stage else { continue }
            required[stage] = required[stage].map { $0 + ", " + option.name } ?? option.name
        }
        return required
    }
    /// Whether `predicate` holds for the stage each option this call sets needs (a stage may come more
    /// than once): what ``requiredStages`` gathers, without building it.
    func allOptionStages(satisfy predicate: (StageID) -> Bool) -> Bool {
        let options = storage.value.options
        for index in options.indices {
            if let stage = options[index].stage, !predicate(stage) { return false }
        }
        return true
    }
    /// Whether the options skip or enable stages or set a stage's option — what a pipeline checks a
    /// call's stage selection for — in one pass over the store (none for most calls).
    var selectsStages: Bool {
        let skipped = ObjectIdentifier(SkippedStages.self)
        let enabled = ObjectIdentifier(EnabledStages.self)
        let options = storage.value.options
        for option in options where option.stage != nil || option.key == skipped || option.key == enabled { return true }
        return false
    }
    /// The options this call sets, stages' and the client's, one per key. A call sets a handful at
    /// most: scanning them is cheaper than hashing a key.
    private var options: [StoredOption] {
        get { storage.value.options }
        _modify { yield &storage.value.options }
    }
    /// The options this call sets, for reflection (``customMirror``).
    var setOptions: [StoredOption] { storage.value.options }
    /// The cache policy chosen with ``cache(_:version:)``; `nil` when these options choose none (the
    /// ``CacheStage``'s default then applies).
    public var cachePolicy: CachePolicy? { self[option: CacheStage.CallPolicy.self] }
    private var contextWriters: [@Sendable (inout CallContext) -> Void] {
        get { self[option: ContextWriters.self] ?? [] }
        set { self[option: ContextWriters.self] = newValue.isEmpty ? nil : newValue }
    }

    /// Every field, behind one reference: passing options along a call copies one reference, and a
    /// change copies the fields only while another copy shares them.
    private var storage: CopyOnWrite<Fields>

    /// The fields, shared between copies until one of them changes: every option is one entry of
    /// the typed store, under its key (the client's own below, each stage's in the stage's file).
    private struct Fields: Sendable {
        var options: [StoredOption] = []
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
        get { stored(ObjectIdentifier(key)).map { unsafeDowncast($0, to: StageOption<Key>.self).typed } }
        set { store(newValue.map { StageOption<Key>($0) }, for: ObjectIdentifier(key)) }
    }

    /// An option the client honours, read back or set; setting `nil` removes it.
    subscript<Key: ClientOptionKey>(option key: Key.Type) -> Key.Value? {
        get { stored(ObjectIdentifier(key)).map { unsafeDowncast($0, to: ClientOption<Key>.self).typed } }
        set { store(newValue.map { ClientOption<Key>($0) }, for: ObjectIdentifier(key)) }
    }

    /// Whether these options set `key`: asked without copying its value out.
    func sets<Key: ClientOptionKey>(_ key: Key.Type) -> Bool { stored(ObjectIdentifier(key)) != nil }

    /// The option stored under `key`, if any.
    @inline(__always)
    private func stored(_ key: ObjectIdentifier) -> StoredOption? {
        // Read in place, by index: most calls set none, and the scan then only reads the count.
        let count = storage.value.options.count
        var index = 0
        while index < count {
            if storage.value.options[index].key == key { return storage.value.options[index] }
            index += 1
        }
        return nil
    }

    /// Replaces the option stored under `key` with `option`, or removes it.
    private mutating func store(_ option: StoredOption?, for key: ObjectIdentifier) {
        if let index = options.firstIndex(where: { $0.key == key }) {
            if let option { options[index] = option } else { options.remove(at: index) }
        } else if let option {
            options.append(option)
        }
    }

    /// What this call's options add to its identity: one line per option that separates calls, by
    /// name.
    var optionIdentity: String {
        // Each line names its key's owner — a stage's id, or the client — with a `:` no stage id can
        // hold, so a stage option named like one of the client's never reads as it.
        options.compactMap { option in
            option.identity.map { (option.stage?.rawValue ?? "client") + ":" + option.name + "=" + $0 }
        }
        .sorted().joined(separator: "\u{1F}")
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
        // Each key's merge rule decides: later wins, sets join, lists append, fields replace by name.
        var merged = self
        for option in other.options {
            if let index = merged.options.firstIndex(where: { $0.key == option.key }) {
                merged.options[index] = merged.options[index].merged(with: option)
            } else {
                merged.options.append(option)
            }
        }
        return merged
    }

    /// Whether these options adjust nothing: merging them with others gives the others unchanged.
    var isEmpty: Bool {
        // An option set to nothing (an empty set, no fields) is not stored.
        storage.isShared(with: Self.empty) || options.isEmpty
    }

    /// Whether the options store context values (``setContextValue(_:for:)``).
    var setsContextValues: Bool { sets(ContextWriters.self) }

    /// Writes the stored context values, and the progress blocks as a `TransferObserver`, into a context.
    func writeValues(into context: inout CallContext) {
        // Stage options first: a value set with setContextValue under an option's key still wins,
        // as it did before options had a store.
        // Each value is stored as it is boxed, under its key's identifier (the options' own key).
        let options = storage.value.options
        for index in options.indices where options[index].stage != nil {
            context.setValue(options[index].value, forKey: options[index].key)
        }
        for write in contextWriters { write(&context) }
        writeProgress(into: &context)
    }
}

extension CallOptions {
    /// ``timeout``: a later value wins.
    enum Timeout: ClientOptionKey {
        typealias Value = Duration
        static let name = "timeout"
    }

    /// ``deadline``: a later value wins; calls with different deadlines never share an answer.
    enum Deadline: ClientOptionKey {
        typealias Value = Duration
        static let name = "deadline"
        static func identity(_ value: Duration) -> String? { "\(value)" }
    }

    /// ``tags``: joined.
    enum Tags: ClientOptionKey {
        typealias Value = Set<RequestTag>
        static let name = "tags"
        static func merge(_ earlier: Value, _ later: Value) -> Value { earlier.union(later) }
    }

    /// ``headerFields``: a later field replaces every earlier field of its name (the fields reach the
    /// request, whose fields are part of a call's identity).
    enum HeaderFields: ClientOptionKey {
        typealias Value = HTTPFields
        static let name = "headerFields"
        static func merge(_ earlier: Value, _ later: Value) -> Value { earlier.replacing(with: later) }
    }

    /// ``additionalStages``: appended, the later ones inside the earlier ones; calls with different
    /// stages of their own never share an answer.
    enum AdditionalStages: ClientOptionKey {
        typealias Value = [any Stage]
        static let name = "additionalStages"
        static func merge(_ earlier: Value, _ later: Value) -> Value { earlier + later }
        static func identity(_ value: Value) -> String? { value.map(\.id.rawValue).joined(separator: ",") }
    }

    /// ``skippedStages``: joined; calls that skip different stages never share an answer.
    enum SkippedStages: ClientOptionKey {
        typealias Value = Set<StageID>
        static let name = "skippedStages"
        static func merge(_ earlier: Value, _ later: Value) -> Value { earlier.union(later) }
        static func identity(_ value: Value) -> String? { value.map(\.rawValue).sorted().joined(separator: ",") }
    }

    /// ``enabledStages``: joined; calls that enable different stages never share an answer.
    enum EnabledStages: ClientOptionKey {
        typealias Value = Set<StageID>
        static let name = "enabledStages"
        static func merge(_ earlier: Value, _ later: Value) -> Value { earlier.union(later) }
        static func identity(_ value: Value) -> String? { value.map(\.rawValue).sorted().joined(separator: ",") }
    }

    /// The writers ``setContextValue(_:for:)`` adds: appended, so a later value wins in the context.
    enum ContextWriters: ClientOptionKey {
        typealias Value = [@Sendable (inout CallContext) -> Void]
        static let name = "contextValues"
        static func merge(_ earlier: Value, _ later: Value) -> Value { earlier + later }
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

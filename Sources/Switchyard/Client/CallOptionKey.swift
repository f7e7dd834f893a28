/// A per-call option of a stage: a typed key, declared in the stage's own file, that says which stage
/// honours it, how two settings of it merge, and whether calls that differ in it may share a response.
///
/// A call sets it on its ``CallOptions`` (``CallOptions/subscript(option:)``); the stage reads it from
/// the call's ``CallContext`` under the same key. Setting an option whose stage the service lacks, or
/// that the call skips, fails the call with ``SwitchyardError/Code/invalidRequest`` naming the stage
/// and the option — an option is never silently ignored.
///
/// ```swift
/// extension AuditStage {
///     /// The reason this call is audited.
///     enum Reason: CallOptionKey {
///         typealias Value = String
///         static let name = "auditReason(_:)"
///         static let stage = StageID("Audit")!
///     }
/// }
/// extension CallOptions {
///     mutating func auditReason(_ reason: String) { self[option: AuditStage.Reason.self] = reason }
/// }
/// // In the stage: context[AuditStage.Reason.self]
/// ```
public protocol CallOptionKey: CallContextKey {
    /// The option's name in errors, such as `retry(maxAttempts:)`.
    static var name: String { get }

    /// The stage that honours the option.
    static var stage: StageID { get }

    /// The value of options applied on top of options that also set it (an endpoint's, then a call's):
    /// by default the later one's.
    static func merge(_ earlier: Value, _ later: Value) -> Value

    /// What the value adds to a call's identity, so that otherwise identical calls that differ in it
    /// never share a response (same-request coalescing); `nil`, the default, when the option does not
    /// change what the server answers.
    static func identity(_ value: Value) -> String?
}

extension CallOptionKey {
    /// The later value wins.
    public static func merge(_ earlier: Value, _ later: Value) -> Value { later }

    /// The option does not separate calls.
    public static func identity(_ value: Value) -> String? { nil }
}

/// One option set on a ``CallOptions``, with what its key knows, behind closures so that options of
/// any key live in one store. Immutable, and a class so that reading a call's options (checking
/// their stages, writing their values into the context) retains one reference, not every field.
final class StoredOption: Sendable {
    /// The key's ``CallOptionKey/name``.
    let name: String
    /// The key's ``CallOptionKey/stage``.
    let stage: StageID
    /// The value.
    let value: any Sendable
    /// Merges a later option of the same key into this one.
    let merge: @Sendable (_ earlier: StoredOption, _ later: StoredOption) -> StoredOption
    /// The value's contribution to the call's identity.
    let identity: @Sendable (_ value: any Sendable) -> String?

    init<Key: CallOptionKey>(_ key: Key.Type, _ value: Key.Value) {
        self.name = Key.name
        self.stage = Key.stage
        self.value = value
        self.merge = { earlier, later in
            guard let first = earlier.value as? Key.Value, let second = later.value as? Key.Value else {
                // Unreachable: options are stored by their key, so both values are the key's.
                assertionFailure("options of \(Key.self) hold a value of another type")
                return later
            }
            return StoredOption(Key.self, Key.merge(first, second))
        }
        self.identity = { value in (value as? Key.Value).flatMap(Key.identity) }
    }
}

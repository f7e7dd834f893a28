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
///         static let stage: StageID = "Audit"
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

/// A per-call option the client itself honours, not a stage: the account, the same-request policy,
/// the progress blocks, the scope… Declared, like a ``CallOptionKey``, in its feature's own file with
/// its merge rule and whether it separates calls, and kept in the same store; having no stage, it
/// needs none in the service and is not written into the call's context.
protocol ClientOptionKey {
    /// The type of the option's value.
    associatedtype Value: Sendable

    /// The option's name, such as `account`.
    static var name: String { get }

    /// The value of options applied on top of options that also set it: by default the later one's.
    static func merge(_ earlier: Value, _ later: Value) -> Value

    /// What the value adds to a call's identity; `nil`, the default, when it does not separate calls.
    static func identity(_ value: Value) -> String?
}

extension ClientOptionKey {
    /// The later value wins.
    static func merge(_ earlier: Value, _ later: Value) -> Value { later }

    /// The option does not separate calls.
    static func identity(_ value: Value) -> String? { nil }
}

/// One option set on a ``CallOptions``, with what its key knows, so that options of any key live in
/// one store. Immutable, and a class so that copying a call's options retains one reference per
/// option; each key's subclass keeps the value as its own type, so reading it back casts nothing.
class StoredOption: @unchecked Sendable {
    // Unchecked: every property, here and in the subclasses, is a `let`.
    /// The key's identifier, under which the store finds the option.
    let key: ObjectIdentifier
    /// The key's name.
    let name: String
    /// The stage that honours the option (``CallOptionKey/stage``); `nil` for an option the client
    /// itself honours (``ClientOptionKey``).
    let stage: StageID?

    init(key: ObjectIdentifier, name: String, stage: StageID?) {
        self.key = key
        self.name = name
        self.stage = stage
    }

    /// The value, boxed, as the call's context stores it.
    var value: any Sendable { preconditionFailure("each key's option overrides value") }

    /// This option with `later`, an option of the same key, merged into it.
    func merged(with later: StoredOption) -> StoredOption { later }

    /// The value's contribution to the call's identity.
    var identity: String? { nil }
}

/// An option of a stage's key.
final class StageOption<Key: CallOptionKey>: StoredOption, @unchecked Sendable {
    /// The value.
    let typed: Key.Value
    /// The value, boxed once, as every call that sets the option writes it into its context.
    private let boxed: any Sendable

    init(_ value: Key.Value) {
        typed = value
        boxed = value
        super.init(key: ObjectIdentifier(Key.self), name: Key.name, stage: Key.stage)
    }

    override var value: any Sendable { boxed }

    override func merged(with later: StoredOption) -> StoredOption {
        // The store keeps options by key: `later` is this key's.
        StageOption(Key.merge(typed, unsafeDowncast(later, to: StageOption<Key>.self).typed))
    }

    override var identity: String? { Key.identity(typed) }
}

/// An option the client itself honours.
final class ClientOption<Key: ClientOptionKey>: StoredOption, @unchecked Sendable {
    /// The value.
    let typed: Key.Value

    init(_ value: Key.Value) {
        typed = value
        super.init(key: ObjectIdentifier(Key.self), name: Key.name, stage: nil)
    }

    override var value: any Sendable { typed }

    override func merged(with later: StoredOption) -> StoredOption {
        // The store keeps options by key: `later` is this key's.
        ClientOption(Key.merge(typed, unsafeDowncast(later, to: ClientOption<Key>.self).typed))
    }

    override var identity: String? { Key.identity(typed) }
}

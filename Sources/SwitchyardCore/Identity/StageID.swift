/// The validated identity of a stage in a service's pipeline.
///
/// A call refers to the stages of its service by id: to skip one (`CallOptions.skippedStages`), to
/// enable one the service registered as opt-in (`CallOptions.enabledStages`), and through the call
/// options that only a particular stage can honour. Like ``ServiceID`` it is a ``ValidatedName``:
/// it can only hold a valid name, and comparison ignores ASCII case.
///
/// The built-in stages have static ids (``logging``, ``retry``, ``cache`` …); give a stage of your own
/// an id the same way:
///
/// ```swift
/// extension StageID {
///     static let clientVersion: StageID = "ClientVersion"
/// }
/// ```
public struct StageID: ValidatedName {
    /// The name as it was given.
    public let rawValue: String
    /// The lower-cased name used for equality, hashing and ordering.
    public let canonicalName: String

    /// Creates a stage id, or returns `nil` when `rawValue` is not a valid name.
    ///
    /// - Parameter rawValue: 1 to 64 characters from `A-Z a-z 0-9 - _ .`, starting with a letter.
    public init?(_ rawValue: String) {
        guard Self.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
        self.canonicalName = rawValue.lowercased()
    }

    /// `stage id`, as errors call it.
    public static var kind: String { "stage id" }

    /// The id a stage type gets when it does not declare one: its type name, with every character a
    /// stage id cannot hold (generic brackets, spaces, commas) replaced by `_`.
    ///
    /// - Parameter type: the stage's type.
    public init(typeName type: Any.Type) {
        var name = String(describing: type).map { character -> Character in
            guard character.isASCII, character.isLetter || character.isNumber || "-_.".contains(character) else { return "_" }
            return character
        }
        if name.first?.isLetter != true { name.insert("S", at: 0) }
        let raw = String(name.prefix(64))
        self.rawValue = raw
        self.canonicalName = raw.lowercased()
    }
}

extension StageID {
    /// The transport at the end of every pipeline, as errors name it: not a stage, but the place a
    /// failure happened.
    public static let transport: StageID = "transport"
}

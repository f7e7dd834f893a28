/// The validated identity of a stage in a service's pipeline.
///
/// A call refers to the stages of its service by id: to skip one (``CallOptions/skippedStages``), to
/// enable one the service registered as opt-in (``CallOptions/enabledStages``), and through the call
/// options that only a particular stage can honour. Like ``ServiceID`` it can only hold a valid name —
/// 1 to 64 characters, ASCII letters, digits, `-`, `_` and `.`, starting with a letter — and comparison
/// ignores ASCII case.
///
/// The built-in stages have static ids (``logging``, ``retry``, ``cache`` …); give a stage of your own
/// an id the same way:
///
/// ```swift
/// extension StageID {
///     static let clientVersion = StageID("ClientVersion")!
/// }
/// ```
public struct StageID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name as it was given.
    public let rawValue: String
    /// The lower-cased name used for equality, hashing and ordering.
    public let canonicalName: String

    /// Creates a stage id, or returns `nil` when `rawValue` is not a valid name.
    ///
    /// - Parameter rawValue: 1 to 64 characters from `A-Z a-z 0-9 - _ .`, starting with a letter.
    public init?(_ rawValue: String) {
        guard ServiceID.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
        self.canonicalName = rawValue.lowercased()
    }

    /// Creates a stage id or throws ``SwitchyardError/Code/invalidRequest`` with the reason.
    ///
    /// - Parameter rawValue: the candidate name.
    /// - Throws: ``SwitchyardError`` when `rawValue` is not a valid name.
    public init(validating rawValue: String) throws(SwitchyardError) {
        guard let id = StageID(rawValue) else {
            throw SwitchyardError(
                code: .invalidRequest,
                message: "'\(rawValue)' is not a valid stage id: use 1 to 64 characters from "
                    + "A-Z, a-z, 0-9, '-', '_' and '.', starting with a letter"
            )
        }
        self = id
    }

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

    /// The name as it was given.
    public var description: String { rawValue }

    /// Two ids are equal when their names are equal ignoring ASCII case.
    public static func == (lhs: StageID, rhs: StageID) -> Bool { lhs.canonicalName == rhs.canonicalName }

    /// Hashes the canonical (lower-cased) name.
    public func hash(into hasher: inout Hasher) { hasher.combine(canonicalName) }

    /// Orders ids by their canonical names.
    public static func < (lhs: StageID, rhs: StageID) -> Bool { lhs.canonicalName < rhs.canonicalName }
}

extension StageID {
    /// The id of a built-in stage; the names are valid by construction.
    package static func builtIn(_ name: String) -> StageID {
        guard let id = StageID(name) else { preconditionFailure("invalid built-in stage id \(name)") }
        return id
    }

    /// The transport at the end of every pipeline, as errors name it: not a stage, but the place a
    /// failure happened.
    public static let transport = builtIn("transport")
}

extension StageID: Codable {
    /// Reads a stage id written as its name (a trace in a HAR archive, say), refusing an invalid one.
    ///
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = try StageID(validating: name)
    }

    /// Writes the stage id as its name.
    ///
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

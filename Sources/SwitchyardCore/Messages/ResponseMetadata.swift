/// A typed key for a value stages attach to a response's ``ResponseMetadata``.
///
/// ```swift
/// enum ServerTiming: ResponseMetadataKey { typealias Value = Duration }
/// response.metadata[ServerTiming.self] = .milliseconds(12)
/// ```
public protocol ResponseMetadataKey: Sendable {
    /// The type of value stored under this key.
    associatedtype Value: Sendable
}

/// What stages learned about a response besides its bytes — the envelope's code and message
/// (`EnvelopeStage.Outcome`), say — carried to the call's result (`CallResult.metadata`) and to
/// the error that carries the response.
public struct ResponseMetadata: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// Empty metadata.
    public init() {}

    /// The value stored under `key`, if any.
    public subscript<Key: ResponseMetadataKey>(key: Key.Type) -> Key.Value? {
        // Most responses carry nothing: an empty store answers without hashing the key.
        get { values.isEmpty ? nil : values[ObjectIdentifier(key)] as? Key.Value }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Whether nothing is stored.
    public var isEmpty: Bool { values.isEmpty }
}

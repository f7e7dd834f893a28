/// A typed key for a value stored in a ``CallContext``.
///
/// ```swift
/// enum AuthToken: CallContextKey { typealias Value = String }
/// context[AuthToken.self] = "t0k3n"
/// ```
public protocol CallContextKey: Sendable {
    /// The type of value stored under this key.
    associatedtype Value: Sendable
}

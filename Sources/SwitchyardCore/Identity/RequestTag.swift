/// A label attached to calls so that they can be found (and, later, cancelled) as a group.
///
/// ```swift
/// let profileTag: RequestTag = "profile-screen"
/// ```
public struct RequestTag: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The tag's text.
    public let rawValue: String
    /// Creates a tag from its text.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Creates a tag from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The tag's text.
    public var description: String { rawValue }
}

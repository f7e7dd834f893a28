/// A construct the generator leaves out, at its place: generation goes on without it (unless
/// `--strict` makes warnings errors).
///
/// Printed as `openapi.yaml:40:9: warning: …`, the form compilers use.
public struct DescriptionWarning: Sendable, Hashable, CustomStringConvertible {
    /// Where the construct is.
    public var location: SourceLocation
    /// What is left out, naming the construct.
    public var message: String

    /// Creates a warning.
    public init(_ message: String, at location: SourceLocation) {
        self.location = location
        self.message = message
    }

    /// `file:line:column: warning: message`, on one line whatever the message quotes from the document.
    public var description: String { "\(location): warning: \(message)".onOneLine }

    /// The same problem as an error, for `--strict`.
    public var asError: DescriptionError { DescriptionError(message, at: location) }
}

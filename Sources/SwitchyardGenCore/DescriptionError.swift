/// One problem in a description file, at a place a person can go to.
///
/// Printed as `Catalog.switchyard.yaml:12:9: error: unknown type 'Artcle' …`, the form compilers use,
/// so editors and Xcode jump to it.
public struct DescriptionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong, and how to fix it where that helps.
    public var message: String

    /// Creates an error.
    public init(_ message: String, at location: SourceLocation) {
        self.location = location
        self.message = message
    }

    /// `file:line:column: error: message`, on one line whatever the message quotes from the document.
    public var description: String { "\(location): error: \(message)".onOneLine }
}

extension String {
    /// The text on one line and with nothing hidden, for a message a terminal or an editor shows: line
    /// breaks as `\n`, other control and invisible format characters as `\u{…}`.
    var onOneLine: String {
        var result = ""
        for scalar in unicodeScalars {
            if scalar == "\n" { result += "\\n" } else { SwiftSource.appendShowingInvisible(scalar, to: &result) }
        }
        return result
    }
}

/// Every problem found in a description file, in the order of the file.
public struct DescriptionErrors: Error, Sendable, CustomStringConvertible {
    /// The problems, sorted by line and column.
    public var errors: [DescriptionError]

    /// Creates the collection, sorted by place.
    public init(_ errors: [DescriptionError]) {
        self.errors = errors.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
    }

    /// One problem per line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// A place in a description file: the file's path, and a 1-based line and column.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as given to the generator.
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// The column, from 1 (counted in Unicode scalars).
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form compilers and editors understand.
    public var description: String { "\(file):\(line):\(column)" }
}

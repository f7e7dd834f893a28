/// Accumulates generated source line by line, with doc comments.
struct SourceWriter {
    private(set) var text = ""

    mutating func line(_ line: String = "") {
        text += line
        text += "\n"
    }

    /// A `///` comment, one line per line of `text` (any line break, `\r\n` included), indented by `indent`
    /// levels of four spaces.
    mutating func doc(_ text: String, indent: Int) {
        let prefix = String(repeating: "    ", count: indent)
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            self.line(prefix + (line.isEmpty ? "///" : "/// " + line))
        }
    }
}

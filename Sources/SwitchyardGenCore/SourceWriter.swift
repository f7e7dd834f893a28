/// Accumulates generated source line by line, with comments.
struct SourceWriter {
    private(set) var text = ""
    /// Put before every line that is not empty: four spaces inside a namespace's extension.
    var indentation = ""

    mutating func line(_ line: String = "") {
        if !line.isEmpty { text += indentation }
        text += line
        text += "\n"
    }

    /// A `///` comment, one line per line of `text` (any line break, `\r\n` included), indented by `indent`
    /// levels of four spaces; each line made safe by ``SwiftSource/comment(_:)``.
    mutating func doc(_ text: String, indent: Int) {
        comment(text, marker: "///", indent: indent)
    }

    /// A comment of `marker` lines (`//`, `///`), one per line of `text`, each made safe by
    /// ``SwiftSource/comment(_:)``.
    mutating func comment(_ text: String, marker: String, indent: Int) {
        let prefix = String(repeating: "    ", count: indent)
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            self.line(prefix + (line.isEmpty ? marker : marker + " " + SwiftSource.comment(String(line))))
        }
    }
}

import Yams

/// Where the constructs of a JSON document are: the text scanned once, by JSON's grammar, into a tree
/// of places (the line and column of each member's key and each item), which a coding path or JSON
/// pointer segments then walk in constant time per segment.
///
/// The same scan gives the document's values as a Yams node tree, in the text's order (without marks:
/// Yams gives no way to make one), which OpenAPIKit decodes and the importer reads its `x-switchyard-*`
/// extensions from, as for YAML: a string is a quoted scalar tagged `str`, a number, Boolean or `null` a
/// plain one tagged as what it is, so no YAML rule ever reads a JSON value. (Foundation's `JSONDecoder`
/// would lose the order of every object's members, which names the generated members' order.)
/// Columns count Unicode scalars of the text as written, as libyaml's do: a `\ud83d\udc4d` escape is
/// twelve columns, so a message after it on the same line names the column an editor shows.
final class JSONLocator {
    /// The place of one value: where its key (or, for an item, the value itself) starts, and the places
    /// of what it holds.
    final class Place {
        let line: Int
        let column: Int
        /// The members of an object, by key (the first of duplicate keys, as ``NodeLocator`` finds).
        var members: [String: Place] = [:]
        /// The items of an array.
        var items: [Place] = []

        init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// The place of the document's outermost value.
    let root: Place
    /// The path shown in messages.
    let file: String

    init(root: Place, file: String) {
        self.root = root
        self.file = file
    }

    /// Where the construct at `path` is: the key that names it (the item, in an array), or the deepest
    /// enclosing construct that exists.
    func location(_ path: [String]) -> SourceLocation {
        var current = root
        for segment in path {
            if let member = current.members[segment] {
                current = member
            } else if let index = Int(segment), current.items.indices.contains(index) {
                current = current.items[index]
            } else {
                break
            }
        }
        return SourceLocation(file: file, line: current.line, column: current.column)
    }

    /// Reads `text` as JSON (RFC 8259): the values as a node tree, and their places.
    ///
    /// - Throws: ``DescriptionErrors`` at the line and column where the text stops being JSON, or where
    ///   it crosses one of ``DocumentLimits``' bounds (depth, nodes, key comparisons).
    static func read(_ text: String, file: String) throws(DescriptionErrors) -> (root: Node, locator: JSONLocator) {
        var scanner = Scanner(bytes: Array(text.utf8), file: file)
        if scanner.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
        scanner.skipSpaces()
        let place = Place(line: scanner.line, column: scanner.column)
        let root = try scanner.value(place: place, depth: 0)
        scanner.skipSpaces()
        guard scanner.index == scanner.bytes.count else { throw scanner.error("the JSON document goes on after its value ends") }
        return (root, JSONLocator(root: place, file: file))
    }

    /// A recursive-descent JSON reader over UTF-8 bytes that keeps the line and column it is at.
    private struct Scanner {
        let bytes: [UInt8]
        let file: String
        var index = 0
        var line = 1
        var column = 1
        /// The values read so far.
        var nodes = 0
        /// The key comparisons Yams's decoder will make finding the keys of the objects read so far.
        var comparisons = 0

        init(bytes: [UInt8], file: String) {
            self.bytes = bytes
            self.file = file
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// A tag named `name` with the loader's resolver: Yams looks a key up by a node it makes with the
        /// mapping's resolver, which must read `"200"` as the string it is, as the loader's does.
        func tag(_ name: Tag.Name) -> Tag { Tag(name, OpenAPIDocumentLoader.resolver) }

        var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }

        func error(_ message: String) -> DescriptionErrors {
            DescriptionErrors([DescriptionError(message, at: location)])
        }

        /// Moves past one byte; a continuation byte of a multi-byte scalar is no column of its own.
        mutating func advance() {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }

        mutating func skipSpaces() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws(DescriptionErrors) {
            guard current == byte else { throw error("expected \(what) here") }
            advance()
        }

        mutating func value(place: Place, depth: Int) throws(DescriptionErrors) -> Node {
            guard depth < DocumentLimits.maximumDepth else { throw DescriptionErrors([DocumentLimits.depthError(at: location)]) }
            nodes += 1
            guard nodes <= DocumentLimits.maximumNodes else { throw DescriptionErrors([DocumentLimits.nodesError(at: location)]) }
            switch current {
            case UInt8(ascii: "{"): return try object(place: place, depth: depth)
            case UInt8(ascii: "["): return try array(place: place, depth: depth)
            case UInt8(ascii: "\""): return Node(try string(), tag(.str), .doubleQuoted)
            case UInt8(ascii: "t"): return try word("true", tag: .bool)
            case UInt8(ascii: "f"): return try word("false", tag: .bool)
            case UInt8(ascii: "n"): return try word("null", tag: .null)
            case nil: throw error("the JSON document ends where a value was expected")
            case let byte?:
                guard byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                    throw error("expected a JSON value here")
                }
                return try number()
            }
        }

        mutating func object(place: Place, depth: Int) throws(DescriptionErrors) -> Node {
            advance()
            var pairs: [(Node, Node)] = []
            skipSpaces()
            if current == UInt8(ascii: "}") {
                advance()
                return Node(pairs, tag(.map), .flow)
            }
            while true {
                skipSpaces()
                guard current == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes here") }
                let member = Place(line: line, column: column)
                let key = try string()
                skipSpaces()
                try expect(UInt8(ascii: ":"), "':' after the member name")
                skipSpaces()
                let value = try value(place: member, depth: depth + 1)
                if place.members[key] == nil { place.members[key] = member }
                pairs.append((Node(key, tag(.str), .doubleQuoted), value))
                skipSpaces()
                if current == UInt8(ascii: ",") {
                    advance()
                    continue
                }
                try expect(UInt8(ascii: "}"), "',' or '}'")
                comparisons += pairs.count * pairs.count
                guard comparisons <= DocumentLimits.maximumKeyComparisons else {
                    throw DescriptionErrors([DocumentLimits.comparisonsError(at: location)])
                }
                return Node(pairs, tag(.map), .flow)
            }
        }

        mutating func array(place: Place, depth: Int) throws(DescriptionErrors) -> Node {
            advance()
            var nodes: [Node] = []
            skipSpaces()
            if current == UInt8(ascii: "]") {
                advance()
                return Node(nodes, tag(.seq), .flow)
            }
            while true {
                skipSpaces()
                let item = Place(line: line, column: column)
                nodes.append(try value(place: item, depth: depth + 1))
                place.items.append(item)
                skipSpaces()
                if current == UInt8(ascii: ",") {
                    advance()
                    continue
                }
                try expect(UInt8(ascii: "]"), "',' or ']'")
                return Node(nodes, tag(.seq), .flow)
            }
        }

        mutating func word(_ word: String, tag name: Tag.Name) throws(DescriptionErrors) -> Node {
            for byte in word.utf8 {
                guard current == byte else { throw error("expected a JSON value here") }
                advance()
            }
            return Node(word, tag(name), .plain)
        }

        mutating func digits() -> Int {
            var count = 0
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                advance()
                count += 1
            }
            return count
        }

        mutating func number() throws(DescriptionErrors) -> Node {
            let start = index
            var isInteger = true
            if current == UInt8(ascii: "-") { advance() }
            if current == UInt8(ascii: "0") {
                advance()
            } else if digits() == 0 {
                throw error("expected a digit here")
            }
            if current == UInt8(ascii: ".") {
                advance()
                isInteger = false
                guard digits() > 0 else { throw error("expected a digit after '.' here") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                advance()
                isInteger = false
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
                guard digits() > 0 else { throw error("expected a digit in the exponent here") }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            return Node(text, tag(isInteger ? .int : .float), .plain)
        }

        /// Four hexadecimal digits after `\u`.
        mutating func hex() throws(DescriptionErrors) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current, let digit = Character(UnicodeScalar(byte)).hexDigitValue else {
                    throw error("expected four hexadecimal digits after '\\u' here")
                }
                value = value * 16 + UInt32(digit)
                advance()
            }
            return value
        }

        /// A string, its escapes decoded: a surrogate pair is one scalar, a lone surrogate U+FFFD.
        mutating func string() throws(DescriptionErrors) -> String {
            advance()
            var result = String.UnicodeScalarView()
            var runStart = index
            func flush(_ scanner: Scanner) {
                if runStart < scanner.index {
                    result.append(contentsOf: String(decoding: scanner.bytes[runStart..<scanner.index], as: UTF8.self).unicodeScalars)
                }
            }
            while true {
                guard let byte = current else { throw error("the JSON document ends inside a string") }
                if byte == UInt8(ascii: "\"") {
                    flush(self)
                    advance()
                    return String(result)
                }
                if byte < 0x20 { throw error("a control character must be escaped inside a JSON string") }
                guard byte == UInt8(ascii: "\\") else {
                    advance()
                    continue
                }
                flush(self)
                advance()
                guard let escape = current else { throw error("the JSON document ends inside a string") }
                advance()
                switch escape {
                case UInt8(ascii: "\""): result.append("\"")
                case UInt8(ascii: "\\"): result.append("\\")
                case UInt8(ascii: "/"): result.append("/")
                case UInt8(ascii: "b"): result.append("\u{08}")
                case UInt8(ascii: "f"): result.append("\u{0C}")
                case UInt8(ascii: "n"): result.append("\n")
                case UInt8(ascii: "r"): result.append("\r")
                case UInt8(ascii: "t"): result.append("\t")
                case UInt8(ascii: "u"):
                    let high = try hex()
                    if (0xD800...0xDBFF).contains(high), current == UInt8(ascii: "\\"), index + 1 < bytes.count,
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        let saved = (index, line, column)
                        advance()
                        advance()
                        let low = try hex()
                        if (0xDC00...0xDFFF).contains(low) {
                            result.append(UnicodeScalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}")
                        } else {
                            (index, line, column) = saved
                            result.append("\u{FFFD}")
                        }
                    } else {
                        result.append(UnicodeScalar(high) ?? "\u{FFFD}")
                    }
                default:
                    throw error("'\\\(Character(UnicodeScalar(escape)))' is no JSON escape")
                }
                runStart = index
            }
        }
    }
}

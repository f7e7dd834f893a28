internal import CYaml
import Yams

/// What the generator reads of an untrusted document, and the limits that keep reading it bounded in
/// time and memory. Every description file, OpenAPI document and configuration file is read through
/// here: its bytes checked as UTF-8 (an error at the first bad byte's line and column), its size
/// bounded, then its YAML events counted by libyaml — the parser Yams itself uses — before Yams
/// composes a tree or OpenAPIKit decodes one. Aliases are counted each time they are used, so a
/// "billion laughs" document of a few hundred bytes is refused at the alias that crosses a limit,
/// in microseconds, instead of being expanded. What aliases add is bounded by the document's own size
/// too (``aliasRatio``), so reading a document costs time in proportion to its text, whatever it repeats.
enum DocumentLimits {
    /// The largest document read, in bytes (16 MiB: several times the largest public API documents).
    static let maximumBytes = 16 << 20
    /// The most nodes (scalars, sequences, mappings) a document may hold once its aliases are expanded,
    /// each alias counted as the nodes it stands for.
    static let maximumNodes = 1_000_000
    /// The most nodes aliases may add to a document, as a multiple of the nodes written in it (each alias
    /// one): reading costs about the same per node, repeated or not, so a document may cost at most this
    /// many times what its text would. Generous for shared responses and parameters, which a real
    /// document repeats a few times; a "billion laughs" repeats its few nodes tens of thousands of times.
    static let aliasRatio = 10
    /// The nodes aliases may add to any document, however small (a little document that repeats a
    /// schema a few times): a few hundred milliseconds of reading at most.
    static let aliasAllowance = 20_000
    /// The deepest nesting of sequences and mappings, aliases expanded where they are used: reading a
    /// node and decoding it recurse, one stack frame set per level.
    static let maximumDepth = 128
    /// The most key comparisons the decoders may make finding a mapping's keys (Yams looks a key up by a
    /// linear scan, so a mapping of `n` keys costs about `n²`; summed over every mapping, aliases
    /// expanded): one mapping of 4,000 keys, or sixteen of 1,000.
    static let maximumKeyComparisons = 16_000_000

    /// The text of a file's bytes, which must be UTF-8 (a UTF-8 byte order mark is allowed) of at most
    /// ``maximumBytes``.
    static func text(of bytes: some Collection<UInt8>, file: String) throws(DescriptionErrors) -> String {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard bytes.count <= maximumBytes else { throw DescriptionErrors([sizeError(bytes.count, at: start)]) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw DescriptionErrors([DescriptionError("the file is UTF-16; save it as UTF-8", at: start)])
        }
        var line = 1
        var column = 1
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let length = sequenceLength(bytes[index...])
            guard length > 0 else {
                let byte = String(bytes[index], radix: 16, uppercase: true)
                throw DescriptionErrors([
                    DescriptionError(
                        "the file is not valid UTF-8: the byte 0x\(byte.count == 1 ? "0" + byte : byte) cannot stand here; save the file as UTF-8",
                        at: SourceLocation(file: file, line: line, column: column)
                    )
                ])
            }
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index = bytes.index(index, offsetBy: length)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The length of the well-formed UTF-8 sequence `bytes` starts with, or 0 when it does not start
    /// with one (a stray continuation byte, an overlong form, a surrogate, a value past U+10FFFF, a cut).
    private static func sequenceLength(_ bytes: some Collection<UInt8>) -> Int {
        var iterator = bytes.makeIterator()
        guard let lead = iterator.next() else { return 0 }
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return 0
        }
        for _ in 1..<length {
            guard let next = iterator.next(), (low...high).contains(next) else { return 0 }
            (low, high) = (0x80, 0xBF)
        }
        return length
    }

    private static func sizeError(_ count: Int, at location: SourceLocation) -> DescriptionError {
        DescriptionError("the file has \(count) bytes; the generator reads documents of at most \(maximumBytes) bytes", at: location)
    }

    /// The document's tree, composed by Yams (with `resolver` for plain scalars' types) once its events
    /// are within the limits; `nil` for an empty document.
    static func compose(_ text: String, file: String, resolver: Resolver = .default) throws(DescriptionErrors) -> Node? {
        let size = text.utf8.count
        guard size <= maximumBytes else { throw DescriptionErrors([sizeError(size, at: SourceLocation(file: file, line: 1, column: 1))]) }
        let scanned =
            text.utf8.withContiguousStorageIfAvailable { scan($0, file: file) }
            ?? Array(text.utf8).withUnsafeBufferPointer { scan($0, file: file) }
        if let problem = scanned { throw DescriptionErrors([problem]) }
        do {
            return try Yams.compose(yaml: text, resolver)
        } catch {
            throw DescriptionErrors([DescriptionParser.yamlError(error, file: file, yaml: text)])
        }
    }

    /// What a node costs to read once composed: its nodes, its height and the key comparisons of its
    /// mappings, each saturating just past its limit.
    private struct Cost {
        var nodes = 0
        var height = 0
        var comparisons = 0

        static let scalar = Cost(nodes: 1, height: 1, comparisons: 0)

        mutating func add(_ child: Cost) {
            nodes = min(nodes + child.nodes, maximumNodes + 1)
            height = max(height, child.height)
            comparisons = min(comparisons + child.comparisons, maximumKeyComparisons + 1)
        }
    }

    /// The first limit the events of `buffer` cross, at the event that crosses it; `nil` when none is
    /// (a syntax error stops the count: Yams reports it with its place when it composes).
    private static func scan(_ buffer: UnsafeBufferPointer<UInt8>, file: String) -> DescriptionError? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        var anchors: [String: Cost] = [:]
        // The nodes written in the document (an alias as one), and after each alias that repeats nodes the
        // nodes counted so far with aliases expanded and where that alias is: the bound on what aliases add
        // depends on the whole document, so it is checked at its end, at the alias that crossed it.
        var written = 0
        var repeats: [(total: Int, location: SourceLocation)] = []
        // The open collections, innermost last: what each holds so far, its anchor, its entries.
        var open: [(cost: Cost, anchor: String?, entries: Int, isMapping: Bool, start: SourceLocation)] = []
        // What composing and decoding the whole document costs: each alias as what it repeats.
        var total = Cost()
        var event = yaml_event_t()
        while yaml_parser_parse(&parser, &event) == 1 {
            defer { yaml_event_delete(&event) }
            let mark = event.start_mark
            var location = SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
            let node: Cost
            let anchor: String?
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return aliasError(written: written, total: total.nodes, repeats: repeats)
            case YAML_SCALAR_EVENT:
                (node, anchor) = (.scalar, name(event.data.scalar.anchor))
                total.add(node)
                written += 1
            case YAML_ALIAS_EVENT:
                // An alias Yams cannot resolve is its error to report; it counts as one node meanwhile.
                (node, anchor) = (name(event.data.alias.anchor).flatMap { anchors[$0] } ?? .scalar, nil)
                total.add(node)
                written += 1
                if node.nodes > 1 { repeats.append((total.nodes, location)) }
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                let anchor = isMapping ? name(event.data.mapping_start.anchor) : name(event.data.sequence_start.anchor)
                open.append((Cost(nodes: 1, height: 0, comparisons: 0), anchor, 0, isMapping, location))
                if open.count > maximumDepth { return depthError(at: location) }
                continue
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard var collection = open.popLast() else { return nil }
                location = collection.start  // a limit a collection crosses is reported where it starts
                // Its contents were counted as they came: only the collection and its key lookups are new.
                let keys = collection.isMapping ? collection.entries / 2 : 0
                let own = Cost(nodes: 1, height: 1, comparisons: keys * keys)
                collection.cost.height += 1
                collection.cost.comparisons = min(collection.cost.comparisons + own.comparisons, maximumKeyComparisons + 1)
                total.add(Cost(nodes: own.nodes, height: 0, comparisons: own.comparisons))
                written += 1
                (node, anchor) = (collection.cost, collection.anchor)
            default:
                continue
            }
            if open.count + node.height > maximumDepth { return depthError(at: location) }
            if total.nodes > maximumNodes { return nodesError(at: location) }
            if total.comparisons > maximumKeyComparisons { return comparisonsError(at: location) }
            if let anchor { anchors[anchor] = node }
            if !open.isEmpty {
                open[open.count - 1].cost.add(node)
                open[open.count - 1].entries += 1
            }
        }
        return nil
    }

    /// The error at the alias after which the nodes aliases add pass ``aliasRatio`` times the `written`
    /// nodes (and ``aliasAllowance``); `nil` when the document's `total` stays within that.
    private static func aliasError(written: Int, total: Int, repeats: [(total: Int, location: SourceLocation)]) -> DescriptionError? {
        let allowed = max(aliasAllowance, aliasRatio * written)
        guard total - written > allowed, let crossing = repeats.first(where: { $0.total - written > allowed }) ?? repeats.last else {
            return nil
        }
        return DescriptionError(
            "the document's aliases repeat more than \(aliasRatio) times its own \(written) nodes here (\(total - written) nodes"
                + " added, at most \(allowed)); the generator reads no further",
            at: crossing.location
        )
    }

    private static func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    static func nodesError(at location: SourceLocation) -> DescriptionError {
        DescriptionError(
            "the document grows past \(maximumNodes) nodes here (each alias counted as the nodes it repeats); the generator reads no further",
            at: location
        )
    }

    static func depthError(at location: SourceLocation) -> DescriptionError {
        DescriptionError(
            "the document nests deeper than \(maximumDepth) levels here (aliases counted where they are used); the generator reads no further",
            at: location
        )
    }

    static func comparisonsError(at location: SourceLocation) -> DescriptionError {
        DescriptionError(
            "the document's mappings grow too large to read here: finding their keys would take more than \(maximumKeyComparisons)"
                + " comparisons (a mapping of n keys costs n², aliases counted each use); the generator reads no further",
            at: location
        )
    }
}

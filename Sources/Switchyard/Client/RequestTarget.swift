import SwitchyardSupport

/// Writes a request target — the base URL's path prefix, the expanded path template, the base's and
/// the template's queries and the parameters' query — into the `String` the request keeps.
///
/// Planning (which finds every error) composes the target into a buffer on the stack while it
/// measures it, and makes the string from it once; only a target longer than that buffer is composed
/// a second time, straight into a string of exactly its size. A placeholder's value is found without
/// making a `String` of its name.
struct RequestTarget {
    /// Where the bytes go: `nil` while only measuring.
    private var output: UnsafeMutablePointer<UInt8>?
    /// The room at `output`: a chunk that might not fit stops the writing, and measuring goes on.
    private let capacity: Int
    /// Bytes written (or measured) so far.
    private(set) var count = 0
    /// The byte that starts the next query part: `?` first, `&` after.
    private var separator = UInt8(ascii: "?")
    /// The path parameters a placeholder used, by their position in the dictionary (up to 64 of them).
    private var usedMask: UInt64 = 0
    /// The names a placeholder used, when there are too many parameters for the mask.
    private var usedNames: Set<String> = []

    private init(output: UnsafeMutablePointer<UInt8>?, capacity: Int) {
        self.output = output
        self.capacity = capacity
    }

    /// The stack buffer planning writes into: room for nearly every target.
    private static let stackCapacity = 1024

    /// The parameters a linear scan looks through before a dictionary lookup is cheaper.
    private static let linearLookupLimit = 8

    /// A template checked and measured, ready to be written once the parameters' query is known.
    /// The template and its parameters are not kept: a target planning could not write is written
    /// from the caller's.
    struct Plan {
        fileprivate let start: Int
        /// The base URL in force: the service's, or the template's own when it is an absolute URL.
        let base: BaseURL
        /// The target's length without the parameters' query.
        fileprivate let length: Int
        /// The target without the parameters' query, when planning could write it.
        fileprivate let written: String?
        /// The byte that starts the parameters' query: `?`, or `&` after the base's or template's query.
        fileprivate let separator: UInt8
        /// The planned template's byte count and parameter count: a target planning could not write
        /// is written from the caller's template and parameters, which must be the ones planned, or
        /// the string made to the measured length would be overrun.
        fileprivate let planned: (templateBytes: Int, parameters: Int)
    }

    /// Checks `template` (whose base, when the template is an absolute URL, is already resolved into
    /// `base` and whose path starts at `start`) and measures its target — before anything else about
    /// the call is encoded, so that a bad template is the error a call reports.
    ///
    /// - Throws: ``SwitchyardError/Code/invalidRequest`` for a malformed template, a missing, empty or
    ///   dot-segment path parameter, or a path parameter no placeholder uses.
    static func plan(
        _ utf8: UnsafeBufferPointer<UInt8>,
        from start: Int,
        template: String,
        base: BaseURL,
        parameters: [String: String]
    ) throws(SwitchyardError) -> Plan {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stackCapacity) { (stack) throws(SwitchyardError) -> Plan in
            var writer = RequestTarget(output: stack.baseAddress, capacity: stack.count)
            try writer.write(utf8, from: start, template: template, base: base, parameters: parameters, query: nil)
            let used = parameters.count <= 64 ? writer.usedMask.nonzeroBitCount : writer.usedNames.count
            if used < parameters.count {
                let named = placeholderNames(utf8, start..<utf8.count)
                let unused = parameters.keys.filter { !named.contains($0) }.sorted()
                throw invalid(
                    "the path template '\(template)' has no placeholder for " + unused.map { "{\($0)}" }.joined(separator: ", ")
                )
            }
            let length = writer.count
            let written = writer.output.map { output in
                String(unsafeUninitializedCapacity: length) { buffer in
                    buffer.baseAddress!.initialize(from: output, count: length)
                    return length
                }
            }
            return Plan(
                start: start,
                base: base,
                length: length,
                written: written,
                separator: writer.separator,
                planned: (utf8.count, parameters.count)
            )
        }
    }

    /// The target `plan` measured, with `extra` (the parameters' query, if any) appended; `template`
    /// (whose UTF-8 is `utf8`) and `parameters` are the ones planned.
    static func write(
        _ plan: Plan,
        _ utf8: UnsafeBufferPointer<UInt8>,
        template: String,
        parameters: [String: String],
        query extra: String?
    ) -> String {
        let length = plan.length + (extra.map { $0.isEmpty ? 0 : 1 + $0.utf8.count } ?? 0)
        if let written = plan.written {
            guard let extra, !extra.isEmpty else { return written }
            return String(unsafeUninitializedCapacity: length) { buffer in
                var writer = RequestTarget(output: buffer.baseAddress!, capacity: .max)  // measured: it fits
                writer.put(contentsOf: written.utf8)
                writer.put(plan.separator)
                writer.put(contentsOf: extra.utf8)
                precondition(writer.count == length, "the request target wrote \(writer.count) bytes where it measured \(length)")
                return length
            }
        }
        precondition(
            utf8.count == plan.planned.templateBytes && parameters.count == plan.planned.parameters,
            "a request target is written from the template and parameters it was planned with"
        )
        return String(unsafeUninitializedCapacity: length) { buffer in
            var writer = RequestTarget(output: buffer.baseAddress!, capacity: .max)  // measured: it fits
            do {
                try writer.write(
                    utf8,
                    from: plan.start,
                    template: template,
                    base: plan.base,
                    parameters: parameters,
                    query: extra
                )
            } catch {
                preconditionFailure("a template that measured without error failed to write: \(error)")
            }
            precondition(writer.count == length, "the request target wrote \(writer.count) bytes where it measured \(length)")
            return length
        }
    }

    private mutating func write(
        _ utf8: UnsafeBufferPointer<UInt8>,
        from start: Int,
        template: String,
        base: BaseURL,
        parameters: [String: String],
        query extra: String?
    ) throws(SwitchyardError) {
        var pathEnd = start
        while pathEnd < utf8.count, utf8[pathEnd] != UInt8(ascii: "?") { pathEnd += 1 }
        put(contentsOf: base.pathPrefix.utf8)
        if start < pathEnd, utf8[start] != UInt8(ascii: "/") { put(UInt8(ascii: "/")) }
        try expand(utf8, start..<pathEnd, literal: .pathLiteral, parameters: parameters, template: template)
        if count == 0 { put(UInt8(ascii: "/")) }
        if let query = base.query {
            startQueryPart()
            put(contentsOf: query.utf8)
        }
        if pathEnd + 1 < utf8.count {
            startQueryPart()
            try expand(utf8, (pathEnd + 1)..<utf8.count, literal: .queryLiteral, parameters: parameters, template: template)
        }
        if let extra, !extra.isEmpty {
            startQueryPart()
            put(contentsOf: extra.utf8)
        }
    }

    /// Whether `bytes` more bytes may not fit: writing stops for good, and measuring goes on.
    @inline(__always)
    private mutating func stopsWriting(before bytes: Int) -> Bool {
        guard output != nil else { return true }
        if count + bytes <= capacity { return false }
        output = nil
        return true
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        if !stopsWriting(before: 1) { output![count] = byte }
        count += 1
    }

    private mutating func put(contentsOf bytes: String.UTF8View) {
        let length = bytes.count
        if !stopsWriting(before: length), let output {
            for byte in bytes {
                output[count] = byte
                count += 1
            }
        } else {
            count += length
        }
    }

    private mutating func startQueryPart() {
        put(separator)
        separator = UInt8(ascii: "&")
    }

    /// Writes `bytes` percent-encoded for `allowed`, by ``PercentEncoding``'s rule.
    private mutating func putEncoded(_ bytes: UnsafeBufferPointer<UInt8>, _ allowed: PercentEncoding.Allowed) {
        _ = stopsWriting(before: 3 * bytes.count)  // every byte may become `%XX`
        PercentEncoding.write(bytes, allowed, to: output, count: &count)
    }

    /// Replaces `{name}` placeholders in `range` with percent-encoded values and encodes the literal text.
    private mutating func expand(
        _ utf8: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        literal: PercentEncoding.Allowed,
        parameters: [String: String],
        template: String
    ) throws(SwitchyardError) {
        var cursor = range.lowerBound
        var index = cursor
        while index < range.upperBound {
            let byte = utf8[index]
            if byte == UInt8(ascii: "}") { throw Self.invalid("the path template '\(template)' has a '}' without a matching '{'") }
            guard byte == UInt8(ascii: "{") else {
                index += 1
                continue
            }
            putEncoded(UnsafeBufferPointer(rebasing: utf8[cursor..<index]), literal)
            var close = index + 1
            while close < range.upperBound, utf8[close] != UInt8(ascii: "}"), utf8[close] != UInt8(ascii: "{") { close += 1 }
            guard close < range.upperBound, utf8[close] == UInt8(ascii: "}") else {
                throw Self.invalid("the path template '\(template)' has a '{' without a matching '}'")
            }
            let name = UnsafeBufferPointer(rebasing: utf8[(index + 1)..<close])
            guard !name.isEmpty else { throw Self.invalid("the path template '\(template)' has an empty placeholder") }
            guard let value = lookUp(name, in: parameters) else {
                throw Self.invalid(
                    "the path template '\(template)' needs a value for {\(String(decoding: name, as: UTF8.self))}, and none was given"
                )
            }
            try putValue(value, named: name)
            index = close + 1
            cursor = index
        }
        putEncoded(UnsafeBufferPointer(rebasing: utf8[cursor..<range.upperBound]), literal)
    }

    /// Writes a path parameter's value as one encoded path component.
    private mutating func putValue(_ value: String, named name: UnsafeBufferPointer<UInt8>) throws(SwitchyardError) {
        var value = value
        let refusal: String? = value.withUTF8 { bytes in
            if bytes.isEmpty { return "is empty, which would change the path's meaning" }
            if bytes.count <= 2, bytes.allSatisfy({ $0 == UInt8(ascii: ".") }) {
                return "is '\(String(decoding: bytes, as: UTF8.self))', a dot segment that servers resolve away"
            }
            putEncoded(bytes, .component)
            return nil
        }
        if let refusal { throw Self.invalid("the path parameter {\(String(decoding: name, as: UTF8.self))} \(refusal)") }
    }

    /// The value of the parameter `name` names, marking it used.
    private mutating func lookUp(_ name: UnsafeBufferPointer<UInt8>, in parameters: [String: String]) -> String? {
        if parameters.count <= Self.linearLookupLimit {
            var position = 0
            for (key, value) in parameters {
                if Self.equals(key, name) {
                    usedMask |= 1 << position
                    return value
                }
                position += 1
            }
        }
        // Many parameters, or a name equal to a key only under Unicode equivalence: a lookup proper.
        let key = String(decoding: name, as: UTF8.self)
        guard let found = parameters.index(forKey: key) else { return nil }
        if parameters.count > 64 {
            usedNames.insert(key)
        } else {
            usedMask |= 1 << parameters.distance(from: parameters.startIndex, to: found)
        }
        return parameters[found].value
    }

    /// Whether `key`'s UTF-8 bytes are `name`'s: the counts first, then the bytes of the key's own
    /// storage (a generic `elementsEqual` over the UTF-8 view walks it index by index).
    @inline(__always)
    private static func equals(_ key: String, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard key.utf8.count == name.count else { return false }
        return key.utf8.withContiguousStorageIfAvailable { bytes in
            for index in 0..<name.count where bytes[index] != name[index] { return false }
            return true
        } ?? key.utf8.elementsEqual(name)
    }

    /// The names of the placeholders in `range` (only asked for to name unused parameters).
    private static func placeholderNames(_ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Set<String> {
        var names: Set<String> = []
        var open: Int?
        for index in range {
            switch utf8[index] {
            case UInt8(ascii: "{"): open = index + 1
            case UInt8(ascii: "}"):
                if let start = open { names.insert(String(decoding: UnsafeBufferPointer(rebasing: utf8[start..<index]), as: UTF8.self)) }
                open = nil
            default: break
            }
        }
        return names
    }

    private static func invalid(_ message: String) -> SwitchyardError {
        SwitchyardError(code: .invalidRequest, message: message)
    }
}

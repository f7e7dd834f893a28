/// Finds an object in which one member name appears more than once with a `null` among its values —
/// the one shape where removing `null` members changes what a decoder reads (`{"a":null,"a":1}`
/// decodes as `nil` with Foundation's `JSONDecoder`, which reads the first, and as `1` once the
/// `null` is gone).
///
/// Runs only on documents the strict pass has already accepted, and only when that pass dropped a
/// member, so it costs nothing for documents without `null` members. Containers are walked with an
/// explicit stack, never by recursion.
enum JSONDuplicateNames {
    /// How many names an object may have before its names are also indexed by a dictionary: below
    /// it a linear scan is cheaper than hashing, above it the scan would grow with the square.
    static let linearLimit = 16

    /// One open container: where its names start on the name stack, and their index once it has
    /// more than ``linearLimit``.
    private struct Frame {
        let isObject: Bool
        let start: Int
        var index: [String: Int]?
    }

    /// The first ambiguous member: its decoded name and the byte offset of its second occurrence.
    static func firstAmbiguous(in bytes: [UInt8]) -> (name: String, offset: Int)? {
        // The names of every open object, innermost last, each with whether a value of it was null:
        // one array for the whole document instead of a dictionary per object.
        var names: [(name: String, isNull: Bool)] = []
        var frames: [Frame] = []
        var index = 0
        var expectingName = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                frames.append(Frame(isObject: byte == UInt8(ascii: "{"), start: names.count))
                expectingName = byte == UInt8(ascii: "{")
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let closed = frames.popLast() { names.removeSubrange(closed.start...) }
                index += 1
            case UInt8(ascii: ","):
                expectingName = frames.last?.isObject ?? false
                index += 1
            case UInt8(ascii: "\"") where expectingName:
                let end = JSONScan.endOfString(bytes, from: index)
                let name = JSONScan.stringValue(bytes, index..<end)
                let valueStart = JSONScan.skipSpace(bytes, from: JSONScan.skipSpace(bytes, from: end) + 1)
                let isNull = valueStart < bytes.count && bytes[valueStart] == UInt8(ascii: "n")
                let top = frames.count - 1
                let seen: Int? =
                    if let index = frames[top].index { index[name] } else { names[frames[top].start...].firstIndex { $0.name == name } }
                if let seen {
                    if names[seen].isNull || isNull { return (name, index) }
                } else {
                    names.append((name, isNull))
                    if frames[top].index != nil {
                        frames[top].index?[name] = names.count - 1
                    } else if names.count - frames[top].start > linearLimit {
                        let own = names.indices[frames[top].start...]
                        frames[top].index = Dictionary(own.map { (names[$0].name, $0) }, uniquingKeysWith: { first, _ in first })
                    }
                }
                expectingName = false
                index = valueStart
            case UInt8(ascii: "\""):
                index = JSONScan.endOfString(bytes, from: index)
            default:
                index += 1
            }
        }
        return nil
    }
}

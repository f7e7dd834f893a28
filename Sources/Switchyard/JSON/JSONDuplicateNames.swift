/// Finds an object in which one member name appears more than once with a `null` among its values —
/// the one shape where removing `null` members changes what a decoder reads (`{"a":null,"a":1}`
/// decodes as `nil` with Foundation's `JSONDecoder`, which reads the first, and as `1` once the
/// `null` is gone).
///
/// Runs only on documents the strict pass has already accepted, and only when that pass dropped a
/// member, so it costs nothing for documents without `null` members. Containers are walked with an
/// explicit stack, never by recursion.
enum JSONDuplicateNames {
    /// The first ambiguous member: its decoded name and the byte offset of its second occurrence.
    static func firstAmbiguous(in bytes: [UInt8]) -> (name: String, offset: Int)? {
        // One frame per open object: the names seen so far and whether a value of each was null.
        var frames: [[String: Bool]?] = []
        var index = 0
        var expectingName = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                frames.append([:])
                expectingName = true
                index += 1
            case UInt8(ascii: "["):
                frames.append(nil)
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                frames.removeLast()
                index += 1
            case UInt8(ascii: ","):
                expectingName = frames.last.map { $0 != nil } ?? false
                index += 1
            case UInt8(ascii: "\"") where expectingName:
                let end = JSONScan.endOfString(bytes, from: index)
                let name = JSONScan.stringValue(bytes, index..<end)
                let valueStart = JSONScan.skipSpace(bytes, from: JSONScan.skipSpace(bytes, from: end) + 1)
                let isNull = valueStart < bytes.count && bytes[valueStart] == UInt8(ascii: "n")
                let top = frames.count - 1
                let seenNull = frames[top]?[name]
                if let seenNull, seenNull || isNull { return (name, index) }
                frames[top]?[name] = (seenNull ?? false) || isNull
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

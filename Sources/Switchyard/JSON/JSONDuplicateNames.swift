import Foundation
import SwitchyardSupport

/// Finds an object in which one member name appears more than once with a `null` among its values —
/// the one shape where removing `null` members changes what a decoder reads (`{"a":null,"a":1}`
/// decodes as `nil` with Foundation's `JSONDecoder`, which reads the first, and as `1` once the
/// `null` is gone).
///
/// Runs only on documents the strict pass has already accepted, and only when that pass dropped a
/// member, so it costs nothing for documents without `null` members. Containers are walked with an
/// explicit stack, never by recursion.
enum JSONDuplicateNames {
    /// How many dropped members' names ``clearsDropped(_:count:input:output:)`` judges; a document
    /// that dropped more gets the full look.
    static let droppedNamesChecked = 8

    /// Whether no object of a document names one of its dropped members twice — `true` only when
    /// that is certain from the names alone; `false` asks for ``firstAmbiguous(in:)``.
    ///
    /// An ambiguous object has dropped a `null` member whose name it names again, with a value that
    /// was kept or with another `null` that was dropped too. So when the dropped names are all
    /// different and none of them names a member of the output, there is none. The output is compact
    /// JSON, so a member named `n` is the bytes `"n":` there; reading them so is exact when the
    /// document holds no escape (a name could hide in an escaped string, or be spelled with `\u`) and
    /// only ASCII (a non-ASCII name can be canonically equal to an ASCII one: U+212A is `K`). Other
    /// documents, and those that dropped more than ``droppedNamesChecked`` members, are not judged.
    ///
    /// - Parameters:
    ///   - droppedNames: the input offsets of the dropped members' names (their opening quotes).
    ///   - count: how many members were dropped; only the first `droppedNames.count` are recorded.
    ///   - input: the document, already accepted by the strict pass.
    ///   - output: the pass's output.
    static func clearsDropped(
        _ droppedNames: UnsafeBufferPointer<Int>,
        count: Int,
        input: UnsafeBufferPointer<UInt8>,
        output: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard count <= droppedNames.count, let inputBase = input.baseAddress, let outputBase = output.baseAddress,
            isPlainASCII(input)
        else { return false }
        for index in 0..<count {
            // Without escapes a name ends at the next quote.
            let start = droppedNames[index] &+ 1
            guard let close = memchr(inputBase + start, Int32(UInt8(ascii: "\"")), input.count &- start) else { return false }
            let length = inputBase.distance(to: close.assumingMemoryBound(to: UInt8.self)) &- start
            // The same name dropped twice (perhaps in two objects: not judged).
            for earlier in 0..<index {
                let other = droppedNames[earlier] &+ 1
                if input[other &+ length] == UInt8(ascii: "\""), memcmp(inputBase + other, inputBase + start, length) == 0 {
                    return false
                }
            }
            // The name kept somewhere in the output: each `:` there ends a member name or lies in a string.
            var colon = 0
            while colon < output.count,
                let found = memchr(outputBase + colon, Int32(UInt8(ascii: ":")), output.count &- colon)
            {
                colon = outputBase.distance(to: found.assumingMemoryBound(to: UInt8.self))
                let open = colon &- length &- 2
                if open >= 0, output[colon &- 1] == UInt8(ascii: "\""), output[open] == UInt8(ascii: "\""),
                    memcmp(outputBase + (open &+ 1), inputBase + start, length) == 0
                {
                    return false
                }
                colon &+= 1
            }
        }
        return true
    }

    /// Whether `bytes` are all ASCII and none is a backslash, eight at a time.
    private static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = ones &* 0x80
        var flags: UInt64 = 0
        var index = 0
        while index &+ 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let backslashes = word ^ (ones &* 0x5C)
            flags |= word | ((backslashes &- ones) & ~backslashes)
            index &+= 8
        }
        while index < bytes.count {
            if base[index] >= 0x80 || base[index] == UInt8(ascii: "\\") { return false }
            index &+= 1
        }
        return flags & high == 0
    }

    /// How many names an object may have before its names are also indexed by a dictionary: below
    /// it a linear scan is cheaper than hashing, above it the scan would grow with the square.
    static let linearLimit = 16

    /// One open container: whether it is an object, where its names start in the shared list, and
    /// its names by decoded text once it has more than ``linearLimit``.
    private struct Frame {
        let isObject: Bool
        let start: Int
        var index: [String: Int]?
    }

    /// One member name as it stands in the document.
    private struct Name {
        /// The bytes between its quotes.
        let range: Range<Int>
        /// Whether those bytes are plain ASCII with no escape: then two such names are the same name
        /// exactly when their bytes are equal, and no `String` needs to be made to tell.
        var isPlain: Bool { decoded == nil }
        /// A name that is not plain, decoded once.
        let decoded: String?
        /// Whether its value is `null`.
        let isNull: Bool
    }

    /// The first name that appears twice in one object with a `null` among its values, and the
    /// byte offset of its second appearance; `nil` when there is none.
    ///
    /// Names are compared as a decoder's dictionary compares them — as Swift strings, so escapes
    /// and canonically equivalent spellings are the same name — but two plain ASCII names, the
    /// common case, are compared by their bytes without making a string.
    static func firstAmbiguous(in bytes: [UInt8]) -> (name: String, offset: Int)? {
        // The names of every open object, innermost last: one array for the whole document instead
        // of a dictionary per object.
        var names: [Name] = []
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
                let valueStart = JSONScan.skipSpace(bytes, from: JSONScan.skipSpace(bytes, from: end) + 1)
                let inner = (index + 1)..<max(index + 1, end - 1)
                let isPlain = !bytes[inner].contains { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }
                let name = Name(
                    range: inner,
                    decoded: isPlain ? nil : JSONScan.stringValue(bytes, index..<end),
                    isNull: valueStart < bytes.count && bytes[valueStart] == UInt8(ascii: "n")
                )
                let top = frames.count - 1
                let seen: Int? =
                    if let index = frames[top].index {
                        index[text(of: name, in: bytes)]
                    } else {
                        names[frames[top].start...].firstIndex { same($0, name, in: bytes) }
                    }
                if let seen {
                    if names[seen].isNull || name.isNull { return (text(of: name, in: bytes), index) }
                } else {
                    names.append(name)
                    if frames[top].index != nil {
                        frames[top].index?[text(of: name, in: bytes)] = names.count - 1
                    } else if names.count - frames[top].start > linearLimit {
                        let own = names.indices[frames[top].start...]
                        frames[top].index = Dictionary(
                            own.map { (text(of: names[$0], in: bytes), $0) },
                            uniquingKeysWith: { first, _ in first }
                        )
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

    /// Whether two names are the same name to a decoder.
    private static func same(_ first: Name, _ second: Name, in bytes: [UInt8]) -> Bool {
        if first.isPlain, second.isPlain { return bytes[first.range] == bytes[second.range] }
        return text(of: first, in: bytes) == text(of: second, in: bytes)
    }

    /// A name's decoded text.
    private static func text(of name: Name, in bytes: [UInt8]) -> String {
        name.decoded ?? String(decoding: bytes[name.range], as: UTF8.self)
    }
}

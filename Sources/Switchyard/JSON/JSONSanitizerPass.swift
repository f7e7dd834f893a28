/// The single forward pass behind ``JSONSanitizer``: it reads UTF-8 bytes once, checks them against
/// the JSON grammar (RFC 8259) as it goes and writes the output without the dropped `null`s and
/// without insignificant whitespace.
///
/// There is no document tree and no recursion. The only state is the current container (object or
/// array, and whether it has written an element yet) plus one bit per enclosing container — in a
/// machine word for the first 64 levels and in an array beyond.
///
/// Members are written optimistically: the comma, the name and the colon go out before the value is
/// read, and when the value turns out to be `null` the output is cut back to where the member began.
/// Because only insignificant whitespace, dropped members and their commas are left out, the output
/// is never longer than the input read so far, so an output buffer as large as the input suffices.
struct JSONSanitizerPass {
    /// The input bytes.
    let input: UnsafePointer<UInt8>
    /// The number of input bytes.
    let count: Int
    /// The output buffer, with room for `count` bytes.
    let output: UnsafeMutablePointer<UInt8>
    /// Where the input offsets of the names of the first dropped object members go (their opening
    /// quotes), as many as it holds.
    let droppedNames: UnsafeMutableBufferPointer<Int>

    /// Creates a pass over `count` bytes at `input`, writing to `output` (room for `count` bytes) and
    /// the offsets of the first dropped members' names to `droppedNames`.
    init(
        input: UnsafePointer<UInt8>,
        count: Int,
        output: UnsafeMutablePointer<UInt8>,
        droppedNames: UnsafeMutableBufferPointer<Int> = UnsafeMutableBufferPointer(start: nil, count: 0)
    ) {
        self.input = input
        self.count = count
        self.output = output
        self.droppedNames = droppedNames
    }

    /// Reads the whole input: exactly one JSON value surrounded by optional whitespace.
    ///
    /// The reading and writing offsets live in local variables (the helpers take and return
    /// offsets), so that they stay in registers.
    ///
    /// - Parameters:
    ///   - removeNullArrayElements: whether `null` array elements are dropped as well.
    ///   - maximumDepth: the deepest nesting of objects and arrays accepted.
    /// - Returns: the number of bytes written to `output`, and how many object members were dropped
    ///   (the names of the first of them are in ``droppedNames``).
    func run(removeNullArrayElements: Bool, maximumDepth: Int) throws(JSONSanitizerFailure) -> (written: Int, droppedMembers: Int) {
        var position = skipWhitespace(from: 0)
        var written = 0
        var depth = 0
        var inObject = false
        var emitted = false
        var enclosingBits: UInt64 = 0
        var enclosingOverflow: [Bool] = []
        var mark = 0
        var dropNull = false
        var droppedMembers = 0
        var nameStart = 0
        while true {
            // A value starts here.
            guard position < count else { throw .unexpectedEnd(at: position, expected: .value) }
            let byte = input[position]
            var descend = false
            switch byte {
            case UInt8(ascii: "\""):
                let end = try copyString(from: position, at: written)
                written &+= end &- position
                position = end
                emitted = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < maximumDepth else { throw .tooDeep(limit: maximumDepth, at: position) }
                if depth > 0 {
                    // Save the enclosing container's kind in slot depth - 1.
                    let slot = depth &- 1
                    if slot < 64 {
                        enclosingBits = inObject ? enclosingBits | (1 &<< UInt64(slot)) : enclosingBits & ~(1 &<< UInt64(slot))
                    } else {
                        enclosingOverflow.append(inObject)
                    }
                }
                depth &+= 1
                inObject = byte == UInt8(ascii: "{")
                emitted = false
                output[written] = byte
                written &+= 1
                position = skipWhitespace(from: position &+ 1)
                guard position < count else {
                    throw .unexpectedEnd(at: position, expected: inObject ? .memberName : .value)
                }
                // `}` is `{` + 2 and `]` is `[` + 2: an empty container closes in the loop below.
                descend = input[position] != byte &+ 2
            case UInt8(ascii: "n"):
                try expectWord(Self.nullWord, at: position, literal: .null)
                position &+= 4
                if dropNull {
                    written = mark
                    if inObject {
                        if droppedMembers < droppedNames.count { droppedNames[droppedMembers] = nameStart }
                        droppedMembers &+= 1
                    }
                } else {
                    putWord(Self.nullWord, at: written)
                    written &+= 4
                    emitted = true
                }
            case UInt8(ascii: "t"):
                try expectWord(Self.trueWord, at: position, literal: .true)
                position &+= 4
                putWord(Self.trueWord, at: written)
                written &+= 4
                emitted = true
            case UInt8(ascii: "f"):
                try expectWord(Self.alseWord, at: position &+ 1, literal: .false)
                position &+= 5
                output[written] = UInt8(ascii: "f")
                putWord(Self.alseWord, at: written &+ 1)
                written &+= 5
                emitted = true
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let end = try endOfNumber(from: position)
                copy(from: position, to: end, at: written)
                written &+= end &- position
                position = end
                emitted = true
            default:
                throw .unexpected(byte, at: position, expected: .value)
            }

            if !descend {
                // After a value: a comma, the end of the enclosing container, or the end of the input.
                while true {
                    position = skipWhitespace(from: position)
                    if depth == 0 {
                        guard position == count else { throw .unexpected(input[position], at: position, expected: .endOfInput) }
                        return (written, droppedMembers)
                    }
                    guard position < count else {
                        throw .unexpectedEnd(at: position, expected: inObject ? .commaOrBrace : .commaOrBracket)
                    }
                    let next = input[position]
                    if next == UInt8(ascii: ",") {
                        position = skipWhitespace(from: position &+ 1)
                        break
                    }
                    guard next == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                        throw .unexpected(next, at: position, expected: inObject ? .commaOrBrace : .commaOrBracket)
                    }
                    output[written] = next
                    written &+= 1
                    position &+= 1
                    depth &-= 1
                    if depth > 0 {
                        let slot = depth &- 1
                        inObject = slot < 64 ? enclosingBits & (1 &<< UInt64(slot)) != 0 : enclosingOverflow.removeLast()
                        emitted = true
                    }
                }
            }

            // The next element of the current container: remember where it starts in the output, so
            // that a `null` value can be cut back out together with its comma and name.
            mark = written
            if emitted {
                output[written] = UInt8(ascii: ",")
                written &+= 1
            }
            if inObject {
                guard position < count else { throw .unexpectedEnd(at: position, expected: .memberName) }
                guard input[position] == UInt8(ascii: "\"") else {
                    throw .unexpected(input[position], at: position, expected: .memberName)
                }
                nameStart = position
                let end = try copyString(from: position, at: written)
                written &+= end &- position
                position = skipWhitespace(from: end)
                guard position < count else { throw .unexpectedEnd(at: position, expected: .colon) }
                guard input[position] == UInt8(ascii: ":") else { throw .unexpected(input[position], at: position, expected: .colon) }
                output[written] = UInt8(ascii: ":")
                written &+= 1
                position = skipWhitespace(from: position &+ 1)
                dropNull = true
            } else {
                dropNull = removeNullArrayElements
            }
        }
    }

    /// `null` as a little-endian word.
    static let nullWord: UInt32 = 0x6C6C_756E
    /// `true` as a little-endian word.
    static let trueWord: UInt32 = 0x6575_7274
    /// `alse` (the rest of `false`) as a little-endian word.
    static let alseWord: UInt32 = 0x6573_6C61

    /// Writes the four bytes of a little-endian word at output offset `target`.
    @inline(__always)
    func putWord(_ word: UInt32, at target: Int) {
        UnsafeMutableRawPointer(output + target).storeBytes(of: word.littleEndian, as: UInt32.self)
    }

    /// The first offset from `start` on that is not a space, tab, carriage return or line feed — the
    /// only whitespace JSON allows.
    @inline(__always)
    func skipWhitespace(from start: Int) -> Int {
        var index = start
        while index < count {
            switch input[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index &+= 1
            default: return index
            }
        }
        return index
    }
}

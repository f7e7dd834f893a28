public import Foundation

/// Reads the events of a stream's chunks as the WHATWG HTML standard's "event stream
/// interpretation" says: lines ending in CR, LF or CRLF; fields `event`, `data`, `id` and `retry`;
/// comments; an event dispatched at each blank line when its data buffer is not empty.
///
/// It reads each chunk where it lies, line by line through a pointer, one event at a time: ``next()``
/// reads on from where the last event ended, so it holds the chunk and the event being gathered, never
/// the chunk's other events. Only the start of a line the chunk ends in the middle of is carried to the
/// next one. It makes only the strings an event needs: its data, its type when it differs from the last
/// event's, its ID when it differs from the last one.
@usableFromInline
struct ServerSentEventParser: Sendable {
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let colon = UInt8(ascii: ":")

    /// The longest line, and the most data one event may gather, in bytes.
    let limit: Int
    /// The chunk being read (copied once, as one block: reading a `Data` in place costs a few hundred
    /// instructions a time, too many to pay per event), its size, and where the next line starts in it.
    private var chunk: [UInt8] = []
    private var count = 0
    private var offset = 0
    /// The first LF and CR in the chunk at or after `offset` (`count` when there is none; -1: not yet
    /// searched), each searched again only once passed, so each byte is searched once for each.
    private var nextLineFeed = -1
    private var nextCarriageReturn = -1
    /// The start of the line the last chunk ended in the middle of.
    private var tail: [UInt8] = []
    /// The last line ended with a CR that was its chunk's last byte: a LF starting the next is part of it.
    private var afterCarriageReturn = false
    private var firstLine = true
    /// The data buffer: each data line and a LF — but the event's only data line so far, while it is
    /// in the chunk being read, stays there (`chunkData`, a range of the chunk) and is not copied.
    private var data: [UInt8] = []
    private var chunkData: Range<Int>?
    /// The event type buffer: whether an `event` field set it, and whether to the last dispatched
    /// type (`lastType`), whose string is then reused; otherwise `type` holds it.
    private var typeSet = false
    private var typeIsLast = false
    private var type: [UInt8] = []
    private var lastType: (bytes: [UInt8], name: String) = ([], "message")
    /// The last event ID: an `id` with the same bytes keeps the string.
    private var lastEventID: String?
    private var retry: Duration?
    /// The error the last line read ended with.
    private var failure: SwitchyardError?

    /// - Parameters:
    ///   - limit: the longest line, and the most data one event may gather, in bytes.
    ///   - lastEventID: the last event ID to start from: a reconnection's, carried over from the
    ///     connection before it, as the standard's `EventSource` keeps it.
    ///   - retry: the reconnection time to start from, carried over likewise.
    @usableFromInline
    init(limit: Int, lastEventID: String? = nil, retry: Duration? = nil) {
        self.limit = max(1, limit)
        self.lastEventID = lastEventID
        self.retry = retry
    }

    /// Starts reading the next chunk, once ``next()`` has returned `nil` for the one before; it is read
    /// in place as its events are asked for.
    @usableFromInline
    mutating func append(_ chunk: Data) {
        self.chunk.removeAll(keepingCapacity: true)
        chunk.withUnsafeBytes { self.chunk.append(contentsOf: $0) }
        count = self.chunk.count
        offset = 0
        nextLineFeed = -1
        nextCarriageReturn = -1
    }

    /// The next event of the chunks appended so far, or `nil` when the next chunk is needed.
    ///
    /// - Throws: ``SwitchyardError/Code/limitExceeded`` for a line longer than the limit, or an event
    ///   gathering more data than it; the rest of the chunk is dropped.
    @usableFromInline
    mutating func next() throws(SwitchyardError) -> ServerSentEvent? {
        guard offset < count else { return nil }
        // Moved out while it is read (and back after), so reading it neither retains it nor overlaps
        // the parser's own access.
        var chunk: [UInt8] = []
        swap(&chunk, &self.chunk)
        defer { swap(&chunk, &self.chunk) }
        // A flag, not an optional error, tells a failure: checking a `SwitchyardError?` for each event
        // went through its type's generic witnesses.
        var failed = false
        let event = chunk.withUnsafeBytes { bytes -> ServerSentEvent? in
            do throws(SwitchyardError) {
                return try read(bytes)
            } catch {
                failure = error
                failed = true
                return nil
            }
        }
        if failed, let failure {
            offset = count
            throw failure
        }
        return event
    }

    /// Reads the chunk's lines (`bytes`) from `offset` on up to the first that dispatches an event,
    /// and returns that event; `nil` once the chunk is read.
    private mutating func read(_ bytes: UnsafeRawBufferPointer) throws(SwitchyardError) -> ServerSentEvent? {
        let count = bytes.count
        var position = offset
        if position == 0, afterCarriageReturn {
            afterCarriageReturn = false
            if bytes[0] == Self.lineFeed { position = 1 }
        }
        while position < count {
            if nextLineFeed < position { nextLineFeed = Self.find(Self.lineFeed, in: bytes, from: position) }
            if nextCarriageReturn < position { nextCarriageReturn = Self.find(Self.carriageReturn, in: bytes, from: position) }
            let end = min(nextLineFeed, nextCarriageReturn)
            guard end < count else {
                // The chunk ends in the middle of a line: carry its start over.
                tail.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[position...]))
                try checkLine(tail.count)
                break
            }
            let start = position
            if bytes[end] == Self.lineFeed {
                position = end + 1
            } else if end + 1 < count {
                position = bytes[end + 1] == Self.lineFeed ? end + 2 : end + 1
            } else {
                position = end + 1
                afterCarriageReturn = true
            }
            let event: ServerSentEvent?
            if tail.isEmpty {
                try checkLine(end - start)
                event = try interpret(bytes, start..<end)
            } else {
                event = try interpretTail(completedBy: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            }
            if let event {
                offset = position
                return event
            }
        }
        offset = count
        keepChunkData(bytes)
        return nil
    }

    /// Interprets the carried-over line, completed by the start of the chunk.
    private mutating func interpretTail(completedBy rest: UnsafeRawBufferPointer) throws(SwitchyardError) -> ServerSentEvent? {
        tail.append(contentsOf: rest)
        try checkLine(tail.count)
        var line: [UInt8] = []
        swap(&line, &tail)
        defer {
            line.removeAll(keepingCapacity: true)
            swap(&line, &tail)
        }
        // Not from the chunk: its data is copied (`chunk: false`).
        return try line.withUnsafeBytes { bytes in
            Result { () throws(SwitchyardError) in try interpret(bytes, 0..<bytes.count, chunk: false) }
        }
        .get()
    }

    /// Interprets one line (`bytes[range]`, without its line end); returns the event a blank line
    /// dispatches. `chunk`: the bytes are the chunk's, which stays until the chunk is read.
    private mutating func interpret(
        _ bytes: UnsafeRawBufferPointer,
        _ range: Range<Int>,
        chunk: Bool = true
    ) throws(SwitchyardError) -> ServerSentEvent? {
        var start = range.lowerBound
        let end = range.upperBound
        if firstLine {
            firstLine = false
            // One UTF-8 byte order mark, at the very start of the stream only.
            if end - start >= 3, bytes[start] == 0xEF, bytes[start + 1] == 0xBB, bytes[start + 2] == 0xBF { start += 3 }
        }
        guard start < end else { return dispatch(bytes) }
        // The field's name runs to the first colon: a known name (at most 5 bytes) is followed by the
        // colon or the line's end; anything else is a comment or a field to ignore.
        guard let (field, nameLength) = Field.starting(bytes, start, end) else { return nil }
        var valueStart = start + nameLength
        if valueStart < end {
            guard bytes[valueStart] == Self.colon else { return nil }
            valueStart += 1
            if valueStart < end, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        }
        let value = valueStart..<end
        switch field {
        case .data: try gather(bytes, value, chunk: chunk)
        case .event: setType(UnsafeRawBufferPointer(rebasing: bytes[value]))
        case .id: setID(UnsafeRawBufferPointer(rebasing: bytes[value]))
        case .retry:
            if let milliseconds = Self.digits(UnsafeRawBufferPointer(rebasing: bytes[value])) { retry = .milliseconds(milliseconds) }
        }
        return nil
    }

    /// Adds a data line to the data buffer.
    private mutating func gather(_ bytes: UnsafeRawBufferPointer, _ value: Range<Int>, chunk: Bool) throws(SwitchyardError) {
        let gathered = chunkData.map { $0.count + 1 } ?? data.count
        guard gathered + value.count <= limit else {
            throw SwitchyardError.streamElementTooLarge(unit: "the data of an event", limit: limit)
        }
        if chunk, chunkData == nil, data.isEmpty {
            chunkData = value
            return
        }
        keepChunkData(bytes)
        data.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[value]))
        data.append(Self.lineFeed)
    }

    /// Copies the data line left in the chunk (`bytes`) into the data buffer, before the chunk goes.
    private mutating func keepChunkData(_ bytes: UnsafeRawBufferPointer) {
        guard let range = chunkData else { return }
        chunkData = nil
        data.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
        data.append(Self.lineFeed)
    }

    private mutating func setType(_ value: UnsafeRawBufferPointer) {
        typeSet = true
        typeIsLast = lastType.bytes.withUnsafeBytes { Self.equal($0, value) }
        if !typeIsLast {
            type.removeAll(keepingCapacity: true)
            type.append(contentsOf: value)
        }
    }

    private mutating func setID(_ value: UnsafeRawBufferPointer) {
        // An ID containing NUL is ignored; an empty one resets the last event ID.
        guard let base = value.baseAddress, !value.isEmpty else {
            lastEventID = nil
            return
        }
        guard memchr(base, 0, value.count) == nil else { return }
        // The same bytes as the last ID's (compared in the string itself, inline when short): kept.
        if let last = lastEventID, last.utf8.count == value.count,
            last.utf8.withContiguousStorageIfAvailable({ memcmp($0.baseAddress!, base, value.count) == 0 }) == true
        {
            return
        }
        lastEventID = Self.string(value)
    }

    /// Ends the event at a blank line: the event when its data buffer is not empty. `bytes`: the chunk.
    private mutating func dispatch(_ bytes: UnsafeRawBufferPointer) -> ServerSentEvent? {
        let text: String
        if let range = chunkData {
            // The only data line stays in the chunk only while the data buffer is empty (`gather`).
            assert(data.isEmpty)
            text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]).assumingMemoryBound(to: UInt8.self), as: UTF8.self)
            chunkData = nil
        } else if !data.isEmpty {
            // Without the last LF.
            text = data.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0.dropLast()), as: UTF8.self) }
            data.removeAll(keepingCapacity: true)
        } else {
            typeSet = false
            return nil
        }
        let type = typeName()
        typeSet = false
        // Made in the return value itself: reset after it (a `defer`) copied the event and
        // destroyed the original, ~190 instructions an event.
        return ServerSentEvent(type: type, data: text, id: lastEventID, retry: retry)
    }

    /// The dispatched event's type: the type buffer's, `message` when it is empty.
    private mutating func typeName() -> String {
        guard typeSet else { return "message" }
        if typeIsLast { return lastType.name }
        guard !type.isEmpty else { return "message" }
        // A stream repeats its types: the string is made once for each run of one type.
        swap(&type, &lastType.bytes)
        lastType.name = lastType.bytes.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        return lastType.name
    }

    private func checkLine(_ length: Int) throws(SwitchyardError) {
        guard length > limit else { return }
        throw SwitchyardError.streamElementTooLarge(unit: "a line of the event stream", limit: limit)
    }

    /// The index of the first `byte` in `bytes` from `start` on, or the count: libc's `memchr`, which
    /// compares many bytes at a time.
    private static func find(_ byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard start < bytes.count, let base = bytes.baseAddress else { return bytes.count }
        guard let found = memchr(base + start, Int32(byte), bytes.count - start) else { return bytes.count }
        return base.distance(to: UnsafeRawPointer(found))
    }

    private static func equal(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        lhs.count == rhs.count && (lhs.isEmpty || memcmp(lhs.baseAddress!, rhs.baseAddress!, lhs.count) == 0)
    }

    /// The value of a field made only of ASCII digits, or `nil` (empty, another byte, or too large).
    private static func digits(_ value: UnsafeRawBufferPointer) -> Int64? {
        guard !value.isEmpty else { return nil }
        var result: Int64 = 0
        for byte in value {
            guard (0x30...0x39).contains(byte) else { return nil }
            let (times, overflowTimes) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int64(byte - 0x30))
            guard !overflowTimes, !overflowSum else { return nil }
            result = sum
        }
        return result
    }

    /// A string of UTF-8 `bytes`, ill-formed sequences replaced as `String(decoding:as:)` does.
    private static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        // Copied into the string's own storage (inline when short) and checked there.
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: bytes)
            return bytes.count
        }
    }

    /// The fields the standard knows; any other name is ignored.
    private enum Field {
        case event, data, id, retry

        /// The field a line (`bytes[start..<end]`, not empty) starts with, and its name's length; `nil`
        /// when it starts with none — the caller checks that the name ends there.
        @inline(__always)
        static func starting(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> (Field, Int)? {
            // Byte by byte: a name is matched once per line, so it must cost next to nothing.
            let length = end - start
            func byte(_ index: Int) -> UInt8 { bytes[start + index] }
            switch byte(0) {
            case 0x64 where length >= 4 && byte(1) == 0x61 && byte(2) == 0x74 && byte(3) == 0x61: return (.data, 4)  // "data"
            case 0x69 where length >= 2 && byte(1) == 0x64: return (.id, 2)  // "id"
            case 0x65 where length >= 5 && byte(1) == 0x76 && byte(2) == 0x65 && byte(3) == 0x6E && byte(4) == 0x74:
                return (.event, 5)  // "event"
            case 0x72 where length >= 5 && byte(1) == 0x65 && byte(2) == 0x74 && byte(3) == 0x72 && byte(4) == 0x79:
                return (.retry, 5)  // "retry"
            default: return nil
            }
        }
    }
}

import Foundation

/// Turns the lines of an event stream into events, as the WHATWG HTML standard's "event stream
/// interpretation" says: fields `event`, `data`, `id` and `retry`, comments, and an event dispatched
/// at each blank line when its data buffer is not empty.
@usableFromInline
struct ServerSentEventParser: Sendable {
    /// The longest data an event may gather, in bytes.
    let limit: Int
    private var data: [UInt8] = []
    private var type: [UInt8] = []
    /// The last event type dispatched, as bytes and as a string: a stream repeats its types, so the
    /// string is made once for each run of one type.
    private var lastType: (bytes: [UInt8], name: String) = ([], "message")
    private var lastEventID: String?
    private var retry: Duration?
    private var firstLine = true

    /// - Parameters:
    ///   - limit: the most data one event may gather, in bytes.
    ///   - lastEventID: the last event ID to start from: a reconnection's, carried over from the
    ///     connection before it, as the standard's `EventSource` keeps it.
    ///   - retry: the reconnection time to start from, carried over likewise.
    @usableFromInline
    init(limit: Int, lastEventID: String? = nil, retry: Duration? = nil) {
        self.limit = max(1, limit)
        self.lastEventID = lastEventID
        self.retry = retry
    }

    /// Interprets one line (without its line end); returns the event a blank line dispatches.
    ///
    /// - Throws: ``SwitchyardError/Code/limitExceeded`` when the event's data grows past the limit.
    mutating func interpret(_ line: ArraySlice<UInt8>) throws(SwitchyardError) -> ServerSentEvent? {
        var line = line
        if firstLine {
            firstLine = false
            // One UTF-8 byte order mark, at the very start of the stream only.
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        }
        guard let first = line.first else { return dispatch() }
        if first == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = colon.map { line[..<$0] } ?? line
        var value = colon.map { line[($0 + 1)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        switch Field(name) {
        case .event:
            type.removeAll(keepingCapacity: true)
            type.append(contentsOf: value)
        case .data:
            // The data buffer holds each line and a LF; the dispatched data drops the last LF.
            guard data.count + value.count <= limit else {
                throw SwitchyardError.streamElementTooLarge(unit: "the data of an event", limit: limit)
            }
            data.append(contentsOf: value)
            data.append(0x0A)
        case .id:
            if !value.contains(0) { lastEventID = value.isEmpty ? nil : String(decoding: value, as: UTF8.self) }
        case .retry:
            if let milliseconds = Self.digits(value) { retry = .milliseconds(milliseconds) }
        case nil:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data.removeAll(keepingCapacity: true)
            type.removeAll(keepingCapacity: true)
        }
        guard !data.isEmpty else { return nil }
        // A copy of its own (from a slice), so the type buffer stays unshared and is reused.
        if type != lastType.bytes { lastType = (Array(type[...]), type.isEmpty ? "message" : String(decoding: type, as: UTF8.self)) }
        return ServerSentEvent(
            type: lastType.name,
            data: String(decoding: data.dropLast(), as: UTF8.self),
            id: lastEventID,
            retry: retry
        )
    }

    /// The value of a field made only of ASCII digits, or `nil` (empty, another byte, or too large).
    private static func digits(_ value: ArraySlice<UInt8>) -> Int64? {
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

    /// The fields the standard knows; any other name is ignored.
    private enum Field {
        case event, data, id, retry

        init?(_ name: ArraySlice<UInt8>) {
            // Byte by byte: a name is matched once per line, so it must cost next to nothing.
            let at = name.startIndex
            switch name.count {
            case 2 where name[at] == 0x69 && name[at + 1] == 0x64: self = .id  // "id"
            case 4 where Self.matches(name, "data"): self = .data
            case 5 where Self.matches(name, "event"): self = .event
            case 5 where Self.matches(name, "retry"): self = .retry
            default: return nil
            }
        }

        /// Whether `name` is `field`'s bytes; both have the same count.
        private static func matches(_ name: ArraySlice<UInt8>, _ field: StaticString) -> Bool {
            name.withUnsafeBufferPointer { bytes in
                memcmp(bytes.baseAddress!, field.utf8Start, bytes.count) == 0
            }
        }
    }
}

import Foundation

/// The `stream` benchmark's `raw-ahc-decode` contender's decoder: what an app that reads an event stream
/// with AsyncHTTPClient alone would write — the lines of each chunk found with `memchr`, a line cut by a
/// chunk's end carried over, `data`, `id` and `event` fields read, and each event made of the same
/// strings Switchyard's `ServerSentEvent` holds (its data, its id, its type). It does only what this
/// feed needs (LF line ends, no BOM, no `retry`, no comments), so it is the floor a decoder's cost is
/// measured against, not a second implementation of the standard.
struct HandWrittenEventParser {
    /// One decoded event: what the consumer receives.
    struct Event {
        var type: String
        var data: String
        var id: String?
    }

    private var carried: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var type: String?
    private var id: String?

    /// Reads the lines of `bytes`, calling `emit` with each event a blank line ends.
    mutating func take(_ bytes: UnsafeRawBufferPointer, emit: (Event) -> Void) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var start = 0
        while start < bytes.count, let found = memchr(base + start, 0x0A, bytes.count - start) {
            let end = base.distance(to: UnsafeRawPointer(found))
            if carried.isEmpty {
                line(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), emit: emit)
            } else {
                carried.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                let whole = carried
                carried.removeAll(keepingCapacity: true)
                whole.withUnsafeBytes { line($0, emit: emit) }
            }
            start = end + 1
        }
        if start < bytes.count { carried.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...])) }
    }

    private mutating func line(_ line: UnsafeRawBufferPointer, emit: (Event) -> Void) {
        if line.isEmpty {
            if hasData {
                emit(Event(type: type ?? "message", data: String(decoding: data, as: UTF8.self), id: id))
                data.removeAll(keepingCapacity: true)
                hasData = false
                type = nil
            }
            return
        }
        if let value = Self.value(of: "data", in: line) {
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        } else if let value = Self.value(of: "id", in: line) {
            id = String(decoding: value, as: UTF8.self)
        } else if let value = Self.value(of: "event", in: line) {
            type = String(decoding: value, as: UTF8.self)
        }
    }

    /// The value of field `name` when `line` is that field (`name:` and an optional space), or `nil`.
    private static func value(of name: StaticString, in line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let count = name.utf8CodeUnitCount
        guard line.count > count, line[count] == UInt8(ascii: ":"), memcmp(line.baseAddress!, name.utf8Start, count) == 0 else {
            return nil
        }
        let start = count + 1 < line.count && line[count + 1] == UInt8(ascii: " ") ? count + 2 : count + 1
        return UnsafeRawBufferPointer(rebasing: line[start...])
    }
}

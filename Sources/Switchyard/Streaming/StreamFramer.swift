public import Foundation

/// Cuts a stream of byte chunks into frames — lines, or the records of a JSON text sequence — holding
/// at most one unfinished frame between chunks, never more than `limit` bytes of it.
///
/// The frames it returns are slices of its buffer: use one before asking for the next.
@usableFromInline
struct StreamFramer {
    /// What ends a frame.
    @usableFromInline
    enum Delimiter: Sendable {
        /// LF; a CR right before it is not part of the line (CRLF is tolerated).
        case lineFeed
        /// RFC 7464: a record starts after RS (0x1E) and ends at the first LF after which its JSON
        /// text is complete. An RS or the end of the stream before that truncates the record, which
        /// is dropped, as RFC 7464 §2.3 allows; bytes outside a record are ignored.
        case recordSeparator
    }

    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let recordSeparator: UInt8 = 0x1E

    let delimiter: Delimiter
    /// The longest frame, in bytes, the framer holds; a longer one is a ``SwitchyardError/Code/limitExceeded``.
    let limit: Int
    /// What a frame is, for the limit's error message ("a line of the event stream").
    let unit: String
    private var buffer: [UInt8] = []
    /// The first byte of the frame being gathered.
    private var start = 0
    /// The bytes before this index have been looked at.
    private var scanned = 0
    /// `recordSeparator`: an RS opened a record that has not ended yet.
    private var inRecord = false
    private var text = JSONTextScanner()

    @usableFromInline
    init(delimiter: Delimiter, limit: Int, unit: String) {
        self.delimiter = delimiter
        self.limit = max(1, limit)
        self.unit = unit
    }

    /// Adds the next chunk of the stream.
    @usableFromInline
    mutating func append(_ chunk: Data) {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scanned = 0
        } else if start >= 1 << 16 || (start > 0 && start * 2 >= buffer.count) {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: chunk)
    }

    /// The next whole frame in what was appended so far, or `nil` when more bytes are needed.
    ///
    /// - Throws: ``SwitchyardError/Code/limitExceeded`` for a frame longer than the limit.
    @usableFromInline
    mutating func next() throws(SwitchyardError) -> ArraySlice<UInt8>? {
        switch delimiter {
        case .lineFeed: try nextLineFeedLine()
        case .recordSeparator: try nextRecord()
        }
    }

    /// What is left once the stream has ended: the last line when it has no line end (`nil` for
    /// records, where such a piece is truncated).
    ///
    /// - Throws: ``SwitchyardError/Code/limitExceeded`` for a piece longer than the limit.
    @usableFromInline
    mutating func finish() throws(SwitchyardError) -> ArraySlice<UInt8>? {
        defer { start = buffer.count }
        switch delimiter {
        case .lineFeed:
            guard start < buffer.count else { return nil }
            return buffer[start...]
        case .recordSeparator:
            return nil
        }
    }

    private mutating func nextLineFeedLine() throws(SwitchyardError) -> ArraySlice<UInt8>? {
        let end = find(Self.lineFeed, from: scanned, to: buffer.count)
        guard end < buffer.count else { return try wait() }
        try check(end - start)
        let lineEnd = end > start && buffer[end - 1] == Self.carriageReturn ? end - 1 : end
        let line = buffer[start..<lineEnd]
        start = end + 1
        scanned = start
        return line
    }

    private mutating func nextRecord() throws(SwitchyardError) -> ArraySlice<UInt8>? {
        var index = scanned
        while index < buffer.count {
            let byte = buffer[index]
            if byte == Self.recordSeparator {
                // A record still open here is truncated: dropped, but never longer than the limit.
                if inRecord { try check(index - start) }
                inRecord = true
                text = JSONTextScanner()
                start = index + 1
            } else if inRecord {
                text.consume(byte)
                if byte == Self.lineFeed, text.isComplete {
                    try check(index - start)
                    let record = buffer[start..<index]
                    inRecord = false
                    start = index + 1
                    scanned = start
                    return record
                }
            }
            index += 1
        }
        scanned = buffer.count
        if !inRecord { start = buffer.count }
        return try wait()
    }

    /// The index of the first `byte` in the buffer's `from..<to`, or `to`: libc's `memchr`, which
    /// compares many bytes at a time.
    private func find(_ byte: UInt8, from: Int, to: Int) -> Int {
        guard from < to else { return to }
        return buffer.withUnsafeBytes { bytes in
            let base = bytes.baseAddress!
            guard let found = memchr(base + from, Int32(byte), to - from) else { return to }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    /// No whole frame yet: the unfinished one must still fit the limit.
    private func wait() throws(SwitchyardError) -> ArraySlice<UInt8>? {
        try check(buffer.count - start)
        return nil
    }

    private func check(_ length: Int) throws(SwitchyardError) {
        guard length > limit else { return }
        throw SwitchyardError.streamElementTooLarge(unit: unit, limit: limit)
    }
}

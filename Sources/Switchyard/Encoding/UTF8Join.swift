/// Text joined by a separator byte and written straight into a buffer of the exact size, without
/// an intermediate joined string: what a cache key's identity and the encryption stage's associated
/// data are made of, on every call.
package enum UTF8Join {
    /// The number of bytes `parts` take joined by a one-byte separator.
    package static func count(_ parts: [Substring]) -> Int {
        var count = max(0, parts.count - 1)
        for part in parts { count += part.utf8.count }
        return count
    }

    /// Writes `parts` joined by `separator` into `buffer`, which has room for at least
    /// ``count(_:)`` bytes; returns the number of bytes written.
    package static func write(_ parts: [Substring], separator: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var offset = 0
        for (index, part) in parts.enumerated() {
            if index > 0 {
                buffer[offset] = separator
                offset += 1
            }
            var part = part  // a copy of the substring, not of the array
            offset += part.withUTF8 { UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(fromContentsOf: $0) }
        }
        return offset
    }
}

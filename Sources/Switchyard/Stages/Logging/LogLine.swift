import Foundation

/// The two lines a ``LoggingStage`` writes for every call at `info`, `→ POST /orders` and
/// `← 201 Created POST /orders 12.4 ms 310 B`, written byte by byte into one string made at its
/// final size: appending piece by piece to a growing string costs several times as much, and these
/// lines are written on every call.
enum LogLine {
    /// `→ METHOD target`.
    static func request(method: String, target: String) -> String {
        make(capacity: 8 + method.utf8.count + target.utf8.count) { line in
            line.write("→ ")
            line.write(method)
            line.write(" ")
            line.write(target)
        }
    }

    /// `← status reason METHOD path 12.4 ms 310 B`, or `… streaming` for a streamed body.
    static func response(_ response: Response, method: String, path: String, elapsed: Duration) -> String {
        let status = response.status
        let reason = status.reasonPhrase
        let size = response.body.stream == nil ? response.body.count : nil
        // The texts, then room for the arrow, four numbers of up to 20 characters and the words between.
        return make(capacity: 128 + reason.utf8.count + method.utf8.count + path.utf8.count) { line in
            line.write("← ")
            line.write(Int64(status.code))
            line.write(" ")
            line.write(reason)
            line.write(" ")
            line.write(method)
            line.write(" ")
            line.write(path)
            line.write(" ")
            line.write(milliseconds: elapsed)
            if let size {
                line.write(" ")
                line.write(Int64(size))
                line.write(" B")
            } else {
                line.write(" streaming")
            }
        }
    }

    /// `12.4 ms`: a duration in milliseconds to the tenth, as every line the stage logs shows one.
    static func milliseconds(_ duration: Duration) -> String {
        // Two numbers of up to 20 digits and a sign each, the point and the unit.
        make(capacity: 48) { $0.write(milliseconds: duration) }
    }

    /// A string of at most `capacity` UTF-8 bytes, written by `body`.
    private static func make(capacity: Int, _ body: (inout Writer) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buffer in
            var writer = Writer(buffer: buffer)
            body(&writer)
            return writer.count
        }
    }

    /// Writes into a buffer sized for everything written.
    private struct Writer {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        mutating func write(_ text: StaticString) {
            copy(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        mutating func write(_ text: String) {
            if text.utf8.withContiguousStorageIfAvailable({ copy($0) }) == nil {
                for byte in text.utf8 {
                    buffer[count] = byte
                    count += 1
                }
            }
        }

        /// `duration` in milliseconds to the tenth, truncated: `12.4 ms`.
        mutating func write(milliseconds duration: Duration) {
            let components = duration.components
            let tenths = components.seconds * 10_000 + components.attoseconds / 100_000_000_000_000
            write(tenths / 10)
            write(".")
            write(tenths % 10)
            write(" ms")
        }

        /// The decimal digits of `number`, with a `-` before a negative one (as `String(number)`).
        mutating func write(_ number: Int64) {
            if number < 0 { write("-") }
            var magnitude = number.magnitude
            // At most 20 digits, written from the last.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
                guard let base = digits.baseAddress else { return }
                var start = digits.count
                repeat {
                    start -= 1
                    digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                } while magnitude > 0
                copy(UnsafeBufferPointer(start: base + start, count: digits.count - start))
            }
        }

        private mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress, let target = buffer.baseAddress else { return }
            precondition(count + bytes.count <= buffer.count, "a log line longer than it was measured")
            (target + count).update(from: source, count: bytes.count)
            count += bytes.count
        }
    }
}

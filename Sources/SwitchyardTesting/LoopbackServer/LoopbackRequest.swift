import NIOCore
import NIOHTTP1

/// One fully received HTTP request, as handed to the loopback server's routes.
struct LoopbackRequest {
    /// The request line and headers exactly as decoded by NIO.
    let head: HTTPRequestHead
    /// The accumulated body; empty when the request carried none.
    let body: ByteBuffer

    /// The request method, e.g. `GET`.
    var method: HTTPMethod { self.head.method }

    /// Whether the request asks to read a resource (`GET`, or `HEAD`, whose body is suppressed).
    var isRead: Bool { self.head.method == .GET || self.head.method == .HEAD }

    /// The raw request target (path plus optional query), percent-encoding untouched.
    var uri: String { self.head.uri }

    /// The raw path: everything before the first `?`.
    var path: Substring {
        let uri = self.head.uri
        guard let mark = uri.firstIndex(of: "?") else { return uri[...] }
        return uri[..<mark]
    }

    /// The raw query: everything after the first `?`, or `nil` when there is no `?`.
    var query: Substring? {
        let uri = self.head.uri
        guard let mark = uri.firstIndex(of: "?") else { return nil }
        return uri[uri.index(after: mark)...]
    }

    /// The non-empty segments of the raw path, e.g. `["users-api", "users", "1"]`.
    var pathSegments: [Substring] {
        self.path.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// The percent-decoded value of the first query item called `name`; `nil` when absent.
    func queryItem(named name: String) -> String? {
        guard let query = self.query else { return nil }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard Self.percentDecoded(parts[0]) == name else { continue }
            return parts.count > 1 ? Self.percentDecoded(parts[1]) : ""
        }
        return nil
    }

    /// Decodes `%XX` escapes and `+` (as a space) in a query component; malformed escapes are kept verbatim.
    static func percentDecoded(_ component: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(component.utf8.count)
        var iterator = Array(component.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let high = Self.hexValue(iterator[iterator.startIndex]),
                let low = Self.hexValue(iterator[iterator.startIndex + 1])
            {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Reading `Content-Type` values without Foundation's character sets, which are slow on Linux.
package enum MediaType {
    /// The lower-cased media type of a `Content-Type` value: `application/json` from
    /// ` Application/JSON ; charset=utf-8`.
    package static func of(_ value: String) -> String {
        let utf8 = value.utf8
        var start = utf8.startIndex
        var end = utf8.firstIndex(of: UInt8(ascii: ";")) ?? utf8.endIndex
        while start < end, utf8[start] == 0x20 || utf8[start] == 0x09 { start = utf8.index(after: start) }
        while end > start {
            let before = utf8.index(before: end)
            guard utf8[before] == 0x20 || utf8[before] == 0x09 else { break }
            end = before
        }
        var bytes = Array(utf8[start..<end])
        for index in bytes.indices where bytes[index] >= UInt8(ascii: "A") && bytes[index] <= UInt8(ascii: "Z") { bytes[index] |= 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a media type is JSON: `application/json` or any `…+json`.
    package static func isJSON(_ mediaType: String) -> Bool {
        mediaType == "application/json" || mediaType.hasSuffix("+json")
    }
}

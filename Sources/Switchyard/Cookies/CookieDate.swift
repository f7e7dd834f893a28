import Foundation

/// The date of a cookie's `Expires` attribute, parsed by the lenient algorithm of RFC 6265 §5.1.1 —
/// which servers' many date spellings need, where an HTTP date parser would drop the attribute.
enum CookieDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The instant `text` names, or `nil` when the algorithm fails (the attribute is then ignored).
    static func parse(_ text: String) -> Date? {
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in text.utf8.split(whereSeparator: isDelimiter).map({ Array($0) }) {
            if time == nil, let found = Self.time(token) {
                time = found
            } else if day == nil, let found = digits(token, 1...2) {
                day = found
            } else if month == nil, token.count >= 3,
                let index = months.firstIndex(where: { $0 == String(decoding: token.prefix(3), as: UTF8.self).lowercased() })
            {
                month = index + 1
            } else if year == nil, let found = digits(token, 2...4) {
                year = found
            }
        }
        guard let time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, time.0 <= 23, time.1 <= 59, time.2 <= 59 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day, hour: time.0, minute: time.1, second: time.2)
        // A day the month does not have (30 February) fails rather than rolling over.
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date
    }

    /// The delimiters of §5.1.1: `%x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// A token of `count` digits, optionally followed by a non-digit and anything.
    private static func digits(_ token: [UInt8], _ count: ClosedRange<Int>) -> Int? {
        let leading = token.prefix { isDigit($0) }
        guard count.contains(leading.count) else { return nil }
        return Int(String(decoding: leading, as: UTF8.self))
    }

    /// `hms-time ( non-digit *OCTET )`: 1–2 digits, `:`, 1–2 digits, `:`, 1–2 digits.
    private static func time(_ token: [UInt8]) -> (Int, Int, Int)? {
        var values: [Int] = []
        var rest = token[...]
        for index in 0..<3 {
            let number = rest.prefix { isDigit($0) }
            guard (1...2).contains(number.count), let value = Int(String(decoding: number, as: UTF8.self)) else { return nil }
            values.append(value)
            rest = rest.dropFirst(number.count)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        if let next = rest.first, isDigit(next) { return nil }
        return (values[0], values[1], values[2])
    }
}

package import Foundation

/// Parses the HTTP date formats of RFC 9110 §5.6.7: the preferred IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the obsolete RFC 850 and asctime forms a recipient must
/// still accept.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The instant `text` names, or `nil` when it is not an HTTP date.
    package static func parse(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map(String.init)
        // IMF-fixdate: [Sun] 06 Nov 1994 08:49:37 GMT; RFC 850: [Sunday] 06 Nov 94 08:49:37 GMT.
        if words.count == 6, words[5] == "GMT", let day = Int(words[1]), let month = month(words[2]), var year = Int(words[3]) {
            if words[3].count == 2 { year += year < 70 ? 2000 : 1900 }
            return make(year: year, month: month, day: day, time: words[4])
        }
        // asctime: Sun Nov  6 08:49:37 1994
        if words.count == 5, let month = month(words[1]), let day = Int(words[2]), let year = Int(words[4]) {
            return make(year: year, month: month, day: day, time: words[3])
        }
        return nil
    }

    private static func month(_ word: String) -> Int? {
        months.firstIndex(of: word.lowercased()).map { $0 + 1 }
    }

    private static func make(year: Int, month: Int, day: Int, time: String) -> Date? {
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), (0...23).contains(clock[0]), (0...59).contains(clock[1]),
            (0...60).contains(clock[2])
        else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm), then seconds since 1970.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146097 + dayOfEra - 719468
        let seconds = days * 86400 + clock[0] * 3600 + clock[1] * 60 + clock[2]
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

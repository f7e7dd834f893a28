import Foundation
import Switchyard

/// Reads the bytes of a body declared as text that are not clean UTF-8 — a Latin-1 JSON login, a
/// token response with one stray byte — as text anyway, so that redaction can read its names: by
/// the declared charset when it is one of the usual single-byte or UTF-16 ones, otherwise as UTF-8
/// with every invalid sequence replaced. Control characters (but tab and line breaks) become
/// U+FFFD too, so what comes out is text redaction accepts.
enum LenientText {
    /// Whether a media type declares text: `text/…`, JSON, XML, YAML, form pairs, scripts and
    /// GraphQL; not an empty type, which declares nothing.
    static func isText(_ mediaType: String) -> Bool {
        if mediaType.hasPrefix("text/") || MediaType.isJSON(mediaType) { return true }
        if mediaType.hasSuffix("+xml") || mediaType.hasSuffix("+yaml") || mediaType.hasSuffix("+json-seq") { return true }
        return textTypes.contains(mediaType)
    }

    private static let textTypes: Set<String> = [
        "application/xml", "application/x-www-form-urlencoded", "application/javascript", "application/ecmascript",
        "application/x-ndjson", "application/jsonl", "application/json-seq", "application/graphql", "application/yaml",
        "application/x-yaml", "application/sql",
    ]

    /// `body` as text, and how it was read (for the entry's comment).
    static func decode(_ body: Data, contentType: String) -> (text: String, how: String) {
        let charset = self.charset(of: contentType)
        let decoded: (String, String)
        switch charset {
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "iso_8859-1", "us-ascii", "ascii":
            decoded = (latin1(body), "decoded as ISO-8859-1, its declared charset")
        case "windows-1252", "cp1252":
            decoded = (String(data: body, encoding: .windowsCP1252) ?? latin1(body), "decoded as windows-1252, its declared charset")
        case "utf-16", "utf-16le", "utf-16be":
            let encoding: String.Encoding = charset == "utf-16le" ? .utf16LittleEndian : charset == "utf-16be" ? .utf16BigEndian : .utf16
            decoded =
                String(data: body, encoding: encoding).map { ($0, "decoded as \(charset.uppercased()), its declared charset") }
                ?? (String(decoding: body, as: UTF8.self), "decoded as UTF-8 with invalid bytes replaced")
        default:
            decoded = (String(decoding: body, as: UTF8.self), "decoded as UTF-8 with invalid bytes replaced")
        }
        return (withoutControlCharacters(decoded.0), decoded.1)
    }

    /// The lower-cased `charset` parameter of a `Content-Type` value, quotes removed; empty without one.
    static func charset(of contentType: String) -> String {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " \t\"'")).lowercased()
        }
        return ""
    }

    /// Every byte as the Unicode scalar of the same number: ISO-8859-1, which any bytes are.
    private static func latin1(_ body: Data) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: body.map { Unicode.Scalar($0) })
        return String(scalars)
    }

    /// `text` with every control character but tab, CR and LF (C0, DEL and C1) replaced by U+FFFD.
    private static func withoutControlCharacters(_ text: String) -> String {
        let isControl = { (scalar: Unicode.Scalar) in
            (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || (0x7F...0x9F).contains(scalar.value)
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isControl(scalar) ? "\u{FFFD}" : scalar) }
        return String(scalars)
    }
}

import Foundation
import Switchyard

/// Reads a `multipart/…` body (RFC 2046, `multipart/form-data` as RFC 7578 uses it) into its parts,
/// so a ``HARRecordingStage`` can record each field through redaction and each file by its
/// description alone. One linear pass; a body it cannot read whole gives `nil`, never a guess.
struct MultipartForm {
    /// One part: what its `Content-Disposition` and `Content-Type` say, and its bytes.
    struct Part {
        /// The disposition type (`form-data`, `attachment` …), lower-cased; `form-data` without one.
        var disposition = "form-data"
        /// The `name` parameter: the form field's name.
        var name: String?
        /// The `filename` parameter: set for a file.
        var filename: String?
        /// The part's `Content-Type`, as written.
        var contentType: String?
        /// The part's content.
        var body: Data
    }

    /// The boundary, as the `Content-Type` declares it.
    let boundary: String
    /// The parts, in order.
    let parts: [Part]

    /// Reads `body` by the boundary its `contentType` declares; `nil` without a boundary, or when the
    /// body does not open with the boundary, a part lacks its head or the closing boundary is missing.
    init?(_ body: Data, contentType: String) {
        guard let boundary = Self.parameters(of: contentType)["boundary"], !boundary.isEmpty else { return nil }
        let bytes = [UInt8](body)
        let delimiter = Array("--\(boundary)".utf8)
        // The first delimiter opens the body or a line (a preamble may come before it).
        guard var position = Self.delimiter(delimiter, in: bytes, from: 0, atStart: true) else { return nil }
        var parts: [Part] = []
        while true {
            position += delimiter.count
            if bytes[position...].starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) { break }
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
            if bytes[position...].starts(with: [0x0D, 0x0A]) {
                position += 2
            } else if bytes[position...].starts(with: [0x0A]) {
                position += 1
            } else {
                return nil
            }
            guard let next = Self.delimiter(delimiter, in: bytes, from: position, atStart: false) else { return nil }
            var end = next
            if end > position, bytes[end - 1] == 0x0A { end -= 1 }
            if end > position, bytes[end - 1] == 0x0D { end -= 1 }
            guard let part = Self.part(bytes[position..<end]) else { return nil }
            parts.append(part)
            position = next
        }
        self.boundary = boundary
        self.parts = parts
    }

    /// The index of the next delimiter at or after `start` that begins a line (or the body, when
    /// `atStart`).
    private static func delimiter(_ delimiter: [UInt8], in bytes: [UInt8], from start: Int, atStart: Bool) -> Int? {
        var index = start
        while index + delimiter.count <= bytes.count {
            let opensLine = index == 0 ? atStart : bytes[index - 1] == 0x0A
            if opensLine, bytes[index..<index + delimiter.count].elementsEqual(delimiter) { return index }
            guard let newline = bytes[index...].firstIndex(of: 0x0A) else { return nil }
            index = newline + 1
        }
        return nil
    }

    /// One part's head and content; `nil` when the head does not end in an empty line.
    private static func part(_ bytes: ArraySlice<UInt8>) -> Part? {
        var part = Part(body: Data())
        var position = bytes.startIndex
        while true {
            guard let newline = bytes[position...].firstIndex(of: 0x0A) else { return nil }
            var line = bytes[position..<newline]
            if line.last == 0x0D { line = line.dropLast() }
            position = newline + 1
            if line.isEmpty { break }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { return nil }
            let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch text[..<colon].trimmingCharacters(in: .whitespaces).lowercased() {
            case "content-disposition":
                let parameters = Self.parameters(of: value)
                part.disposition = value.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
                part.name = parameters["name"]
                part.filename = parameters["filename"] ?? parameters["filename*"]
            case "content-type":
                part.contentType = value
            default:
                break
            }
        }
        part.body = Data(bytes[position...])
        return part
    }

    /// The `name=value` parameters after the first `;` of a header value, names lower-cased, quoted
    /// values unquoted (`\"` inside them read as `"`).
    static func parameters(of value: String) -> [String: String] {
        var parameters: [String: String] = [:]
        var characters = Substring(value)
        guard let semicolon = characters.firstIndex(of: ";") else { return [:] }
        characters = characters[characters.index(after: semicolon)...]
        while !characters.isEmpty {
            characters = characters.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            let name = characters.prefix { $0 != "=" && $0 != ";" }
            characters = characters.dropFirst(name.count)
            guard characters.first == "=" else { continue }
            characters = characters.dropFirst()
            var parsed = ""
            if characters.first == "\"" {
                characters = characters.dropFirst()
                while let character = characters.popFirst(), character != "\"" {
                    parsed.append(character == "\\" ? (characters.popFirst() ?? character) : character)
                }
            } else {
                let raw = characters.prefix { $0 != ";" }
                characters = characters.dropFirst(raw.count)
                parsed = raw.trimmingCharacters(in: .whitespaces)
            }
            parameters[name.trimmingCharacters(in: .whitespaces).lowercased()] = parsed
        }
        return parameters
    }
}

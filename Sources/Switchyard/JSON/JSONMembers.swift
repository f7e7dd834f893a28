import Foundation
import SwitchyardSupport

/// Finds the members of a JSON document's top-level object by scanning bytes, without building a
/// tree: what ``EnvelopeStage`` needs to read a code and cut out the payload exactly as sent.
enum JSONMembers {
    /// One member: where its value's bytes are, and whether it is a string.
    struct Member {
        let valueRange: Range<Int>
        let isString: Bool

        /// A string's decoded text, or a number's or boolean's literal text; `nil` for objects,
        /// arrays and `null`.
        func scalarText(in data: Data) -> String? {
            let range = valueRange
            return data.withUnsafeBytes { raw -> String? in
                let bytes = UnsafeRawBufferPointer(rebasing: raw[range])
                if isString {
                    let inner = UnsafeRawBufferPointer(rebasing: bytes[1..<max(1, bytes.count - 1)])
                    // Text without an escape is its bytes; the rest is decoded as before.
                    if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
                    return JSONScan.stringValue([UInt8](bytes), 0..<bytes.count)
                }
                guard let first = bytes.first, first != UInt8(ascii: "{"), first != UInt8(ascii: "["),
                    !(bytes.count == 4 && first == UInt8(ascii: "n"))
                else { return nil }
                return String(decoding: bytes, as: UTF8.self)
            }
        }

        /// Whether the value is `null`.
        func isNull(in data: Data) -> Bool {
            data[data.index(data.startIndex, offsetBy: valueRange.lowerBound)] == UInt8(ascii: "n")
        }
    }

    /// A scanning failure, with the byte offset.
    struct ScanError: Error {
        let message: String
    }

    /// The top-level members of `data`, which must be a JSON object, by name (``TopLevel``: the
    /// first of a name that appears more than once). The document is validated first (by ``JSONSanitizer``'s strict
    /// pass) unless `validated` says a caller already did, so the scan may assume well-formed input.
    ///
    /// - Parameters:
    ///   - data: the document.
    ///   - validated: whether the caller has already checked that `data` is well-formed.
    ///   - unique: names the caller reads, which must appear at most once whatever their values:
    ///     Foundation's `JSONSerialization` reads the last of a repeated name and this scan the first,
    ///     so a reader that picked one would disagree with another.
    /// - Throws: ``ScanError`` for a document that is not a JSON object, for a name that appears more
    ///   than once with a `null` among its values (readers disagree on which one counts), and for a
    ///   name of `unique` that appears more than once.
    static func topLevel(of data: Data, validated: Bool = false, unique: [String] = []) throws(ScanError) -> TopLevel {
        let entries = try ordered(of: data, validated: validated)
        // An envelope has a handful of members: comparing names beats hashing them. Many members
        // get a dictionary, so the check stays linear in the body.
        var index: [String: Member]?
        if entries.count > linearLimit {
            index = [:]
            index?.reserveCapacity(entries.count)
        }
        for (position, entry) in entries.enumerated() {
            let first: Member?
            if index != nil {
                first = index?[entry.name]
                if first == nil { index?[entry.name] = entry.member }
            } else {
                first = entries[..<position].first { $0.name == entry.name }?.member
            }
            guard let first else { continue }
            if unique.contains(entry.name) {
                throw ScanError(message: "ambiguous JSON: the member '\(entry.name)' appears more than once at byte \(entry.start)")
            }
            if first.isNull(in: data) || entry.member.isNull(in: data) {
                throw ScanError(
                    message: "ambiguous JSON: the member '\(entry.name)' appears more than once at byte \(entry.start), "
                        + "with a null among its values"
                )
            }
        }
        return TopLevel(entries: entries, index: index)
    }

    /// How many members an object may have before ``topLevel(of:validated:unique:)`` indexes them by
    /// a dictionary: below it, comparing names is cheaper than hashing them.
    static let linearLimit = 16

    /// The top-level members of an object, found by name: the first of a name that appears more than once.
    struct TopLevel {
        /// The members in document order.
        let entries: [Entry]
        /// The members by name, when there are more than ``JSONMembers/linearLimit``.
        let index: [String: Member]?

        /// The member named `name`, if any.
        subscript(name: String) -> Member? {
            if let index { return index[name] }
            return entries.first { $0.name == name }?.member
        }
    }

    /// One top-level member in document order: its decoded name, where the whole `"name": value`
    /// text starts, and its value.
    struct Entry {
        let name: String
        let start: Int
        let member: Member
    }

    /// The top-level members of `data` in document order, duplicates included and not judged (that
    /// is ``topLevel(of:validated:)``'s business, or the caller's). `data` must be a JSON object;
    /// `validated` says the caller has already checked it is well-formed.
    static func ordered(of data: Data, validated: Bool = false) throws(ScanError) -> [Entry] {
        // Strict validation in one byte-level pass (with a depth limit), then the scan may trust the shape.
        if !validated {
            do {
                try JSONSanitizer().validate(data)
            } catch {
                throw ScanError(message: "the body is not valid JSON: \(error.message)")
            }
        }
        // Read in place: the body's own bytes, not a copy.
        let members = data.withUnsafeBytes { raw in Scan(bytes: raw.bindMemory(to: UInt8.self)).members() }
        guard let members else { throw ScanError(message: "the top level is not an object") }
        return members
    }

    /// The walk behind ``ordered(of:validated:)`` over a well-formed document's bytes, as
    /// ``JSONScan`` walks an array.
    private struct Scan {
        let bytes: UnsafeBufferPointer<UInt8>

        /// The top-level members in document order; `nil` when the top level is not an object.
        func members() -> [Entry]? {
            let open = skipSpace(from: 0)
            guard open < bytes.count, bytes[open] == UInt8(ascii: "{") else { return nil }
            var members: [Entry] = []
            // An envelope has a handful of members: room for them at once, not by doubling.
            members.reserveCapacity(8)
            var index = open + 1  // past "{"
            while true {
                index = skipSpace(from: index)
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { break }
                let keyStart = index
                let keyEnd = endOfString(from: index)
                let key = stringValue(index..<keyEnd)
                index = skipSpace(from: keyEnd) + 1  // past ":"
                index = skipSpace(from: index)
                let valueStart = index
                let valueEnd = endOfValue(from: index)
                members.append(
                    Entry(
                        name: key,
                        start: keyStart,
                        member: Member(valueRange: valueStart..<valueEnd, isString: bytes[valueStart] == UInt8(ascii: "\""))
                    )
                )
                index = skipSpace(from: valueEnd)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
                index += 1
            }
            return members
        }

        private func skipSpace(from start: Int) -> Int {
            var index = start
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                index += 1
            }
            return index
        }

        private func endOfString(from start: Int) -> Int {
            var index = start + 1
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if bytes[index] == UInt8(ascii: "\"") { return index + 1 }
                index += 1
            }
            return bytes.count
        }

        private func endOfValue(from start: Int) -> Int {
            guard start < bytes.count else { return start }
            switch bytes[start] {
            case UInt8(ascii: "\""):
                return endOfString(from: start)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                var index = start
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: "\""):
                        index = endOfString(from: index)
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { return index + 1 }
                    default: break
                    }
                    index += 1
                }
                return bytes.count
            default:
                var index = start
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return index
                    default: index += 1
                    }
                }
                return index
            }
        }

        /// The decoded text of the string literal at `range`, quotes included (``JSONScan/stringValue(_:_:)``).
        private func stringValue(_ range: Range<Int>) -> String {
            let inner = UnsafeBufferPointer(rebasing: bytes[(range.lowerBound + 1)..<max(range.lowerBound + 1, range.upperBound - 1)])
            if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
            return JSONScan.stringValue(Array(bytes[range]), 0..<range.count)
        }
    }
}

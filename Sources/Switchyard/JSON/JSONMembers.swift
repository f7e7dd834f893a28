import Foundation

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
            let bytes = data.subdata(in: valueRange)
            if isString { return JSONScan.stringValue([UInt8](bytes), 0..<bytes.count) }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let first = text.utf8.first, first != UInt8(ascii: "{"), first != UInt8(ascii: "["), text != "null" else { return nil }
            return text
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

    /// The top-level members of `data`, which must be a JSON object, by name (the first of a name
    /// that appears more than once). The document is validated first (by ``JSONSanitizer``'s strict
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
    static func topLevel(of data: Data, validated: Bool = false, unique: [String] = []) throws(ScanError) -> [String: Member] {
        let entries = try ordered(of: data, validated: validated)
        var members: [String: Member] = [:]
        members.reserveCapacity(entries.count)
        for entry in entries {
            guard let first = members[entry.name] else {
                members[entry.name] = entry.member
                continue
            }
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
        return members
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
        let bytes = [UInt8](data)
        let open = JSONScan.skipSpace(bytes, from: 0)
        guard open < bytes.count, bytes[open] == UInt8(ascii: "{") else {
            throw ScanError(message: "the top level is not an object")
        }
        var members: [Entry] = []
        // An envelope has a handful of members: room for them at once, not by doubling.
        members.reserveCapacity(8)
        var index = open + 1  // past "{"
        while true {
            index = JSONScan.skipSpace(bytes, from: index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { break }
            let keyStart = index
            let keyEnd = JSONScan.endOfString(bytes, from: index)
            let key = JSONScan.stringValue(bytes, index..<keyEnd)
            index = JSONScan.skipSpace(bytes, from: keyEnd) + 1  // past ":"
            index = JSONScan.skipSpace(bytes, from: index)
            let valueStart = index
            let valueEnd = JSONScan.endOfValue(bytes, from: index)
            members.append(
                Entry(
                    name: key,
                    start: keyStart,
                    member: Member(valueRange: valueStart..<valueEnd, isString: bytes[valueStart] == UInt8(ascii: "\""))
                )
            )
            index = JSONScan.skipSpace(bytes, from: valueEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            index += 1
        }
        return members
    }
}

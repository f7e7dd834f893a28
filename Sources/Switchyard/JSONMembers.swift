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
            if isString { return (try? JSONDecoder().decode(String.self, from: bytes)) }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let first = text.utf8.first, first != UInt8(ascii: "{"), first != UInt8(ascii: "["), text != "null" else { return nil }
            return text
        }
    }

    /// A scanning failure, with the byte offset.
    struct ScanError: Error {
        let message: String
    }

    /// The top-level members of `data`, which must be a JSON object. The document is validated
    /// first (by Foundation's parser), so the scan may assume well-formed input.
    static func topLevel(of data: Data) throws(ScanError) -> [String: Member] {
        do {
            guard try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) is [String: Any] else {
                throw ScanError(message: "the top level is not an object")
            }
        } catch let error as ScanError {
            throw error
        } catch {
            throw ScanError(message: "the body is not valid JSON")
        }
        let bytes = [UInt8](data)
        var members: [String: Member] = [:]
        var index = skipSpace(bytes, from: 0) + 1  // past "{"
        while true {
            index = skipSpace(bytes, from: index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { break }
            let keyEnd = endOfString(bytes, from: index)
            let key = (try? JSONDecoder().decode(String.self, from: Data(bytes[index..<keyEnd]))) ?? ""
            index = skipSpace(bytes, from: keyEnd) + 1  // past ":"
            index = skipSpace(bytes, from: index)
            let valueStart = index
            let valueEnd = endOfValue(bytes, from: index)
            if members[key] == nil { members[key] = Member(valueRange: valueStart..<valueEnd, isString: bytes[valueStart] == UInt8(ascii: "\"")) }
            index = skipSpace(bytes, from: valueEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            index += 1
        }
        return members
    }

    private static func skipSpace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
        return index
    }

    /// The index just past the string starting at `start` (which holds `"`).
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") { index += 2; continue }
            if bytes[index] == UInt8(ascii: "\"") { return index + 1 }
            index += 1
        }
        return bytes.count
    }

    /// The index just past the value starting at `start`.
    private static func endOfValue(_ bytes: [UInt8], from start: Int) -> Int {
        guard start < bytes.count else { return start }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return endOfString(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""): index = endOfString(bytes, from: index); continue
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
            while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            return index
        }
    }
}

import Foundation

/// Reads members of a JSON envelope by dot-separated key paths (`status.code`), scanning bytes
/// without building a tree; the payload is cut out exactly as sent.
struct EnvelopeReader {
    private let body: Data
    private let top: [String: JSONMembers.Member]

    /// Validates `body` and reads its top-level members.
    init(_ body: Data) throws(JSONMembers.ScanError) {
        self.body = body
        self.top = try JSONMembers.topLevel(of: body)
    }

    /// The member at `path`, with the body it lives in and that body's offset in the whole document.
    private func member(at path: String) -> (member: JSONMembers.Member, data: Data, offset: Int)? {
        var names = path.split(separator: ".").map(String.init)
        guard !names.isEmpty, var current = top[names.removeFirst()] else { return nil }
        var data = body
        var offset = 0
        for name in names {
            let inner = data.subdata(in: current.valueRange)
            guard inner.first == UInt8(ascii: "{"), let members = try? JSONMembers.topLevel(of: inner), let next = members[name] else {
                return nil
            }
            offset += current.valueRange.lowerBound
            data = inner
            current = next
        }
        return (current, data, offset)
    }

    /// The byte range of the value at `path` in the whole body.
    func range(at path: String) -> Range<Int>? {
        member(at: path).map { ($0.offset + $0.member.valueRange.lowerBound)..<($0.offset + $0.member.valueRange.upperBound) }
    }

    /// A string's text, or a number's or boolean's literal, at `path`.
    func scalar(at path: String) -> String? {
        member(at: path).flatMap { $0.member.scalarText(in: $0.data) }
    }

    /// The raw bytes of the value at `path`.
    func raw(at path: String) -> Data? {
        member(at: path).map { $0.data.subdata(in: $0.member.valueRange) }
    }
}

public import Foundation

/// Finds a member of a JSON document by a dot-separated key path (`data`, `result.data`) by scanning
/// bytes, without building a tree — for stages that rewrite one member of an envelope and must leave
/// every other byte as the server sent it (the encryption stage's envelope framing, say).
///
/// ```swift
/// if let range = JSONMemberPath.valueRange(of: "result.data", in: body) {
///     body.replaceSubrange(range, with: plaintext)
/// }
/// ```
public enum JSONMemberPath {
    /// The byte range of the value at `path` in `json`, or `nil` when the document is not a JSON
    /// object, has no such member, or is ambiguous on the way to it: an object there names the
    /// member the path reads twice (whatever its values), or names any member twice with a `null`
    /// among its values — readers disagree on which one counts. The document is validated strictly
    /// first; names repeated elsewhere in it are not this lookup's concern.
    ///
    /// - Parameters:
    ///   - path: member names separated by dots, from the top-level object.
    ///   - json: a UTF-8 JSON document.
    /// - Returns: the range of the member's value (for a string, quotes included).
    public static func valueRange(of path: String, in json: Data) -> Range<Int>? {
        (try? EnvelopeReader(json, paths: [path]))?.range(at: path)
    }

    /// Why ``valueRange(of:in:)`` finds nothing at `path` when the reason is that `json` is
    /// ambiguous on the way to it (the message names the member and its byte offset); `nil` when
    /// `json` is not strict JSON or not an object, or is unambiguous on the way to `path`.
    ///
    /// - Parameters:
    ///   - path: member names separated by dots, from the top-level object.
    ///   - json: a UTF-8 JSON document.
    /// - Returns: the ambiguity, for an error message.
    package static func ambiguity(of path: String, in json: Data) -> String? {
        // A well-formed object leaves the reader only ambiguity to refuse.
        guard (try? JSONSanitizer().validate(json)) != nil,
            json.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) == UInt8(ascii: "{")
        else { return nil }
        do {
            _ = try EnvelopeReader(json, paths: [path])
            return nil
        } catch {
            return error.message
        }
    }
}

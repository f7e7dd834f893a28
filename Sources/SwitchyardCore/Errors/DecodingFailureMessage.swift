package import Foundation

/// Turns a decoding error into a sentence a person understands.
package enum DecodingFailureMessage {
    /// The ``SwitchyardError`` for a failed decoding: a Switchyard error is kept, anything else
    /// becomes ``SwitchyardError/Code/decoding`` with a readable message; status and body are attached.
    package static func error(for error: any Error, output: Any.Type, response: Response) -> SwitchyardError {
        var failure = SwitchyardError.wrapping(error, as: .decoding)
        if !(error is SwitchyardError) {
            failure.message = describe(error, output: output, body: response.bytes)
        }
        return failure.carrying(response)
    }

    /// The sentence for `error`, met decoding `body` as `output`; `subject` names what was decoded
    /// ("the response body", "value 3 of the JSON Lines stream").
    package static func describe(_ error: any Error, output: Any.Type, body: Data, subject: String = "the response body") -> String {
        let target = String(describing: output)
        if body.isEmpty { return "\(subject) is empty, so it cannot be decoded as \(target)" }
        guard let decodingError = error as? DecodingError else {
            return "\(subject) cannot be decoded as \(target): \(error)"
        }
        switch decodingError {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "\(subject) is not valid JSON, so it cannot be decoded as \(target)"
        case .dataCorrupted(let context):
            return "the value at \(path(context.codingPath)) is invalid for \(target): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "the key '\(key.stringValue)' is missing at \(path(context.codingPath)) while decoding \(target)"
        case .typeMismatch(let type, let context):
            return "the value at \(path(context.codingPath)) is not a \(type) while decoding \(target)"
        case .valueNotFound(let type, let context):
            return "the value at \(path(context.codingPath)) is null where a \(type) is required while decoding \(target)"
        @unknown default:
            return "\(subject) cannot be decoded as \(target): \(decodingError)"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the top level" }
        return codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }
}

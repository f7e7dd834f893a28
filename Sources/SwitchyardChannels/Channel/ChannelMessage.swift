public import Foundation
public import Switchyard

/// One whole message on a ``Channel``: text or binary, however many frames it came in.
///
/// ```swift
/// for try await message in channel.messages {
///     let quote = try message.decode(Quote.self)
/// }
/// ```
public enum ChannelMessage: Sendable, Hashable {
    /// A text message (UTF-8 on the wire).
    case text(String)
    /// A binary message.
    case binary(Data)

    /// The message's bytes: a text message's UTF-8.
    public var data: Data {
        switch self {
        case .text(let text): Data(text.utf8)
        case .binary(let data): data
        }
    }

    /// The message's length in bytes, without copying it.
    var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let data): data.count
        }
    }

    /// The message decoded from JSON, text or binary.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the decoder; a plain `JSONDecoder` by default.
    /// - Returns: the decoded value.
    /// - Throws: `SwitchyardError` with `SwitchyardError.Code.decoding`, naming
    ///   the type and what does not fit, never the message's bytes.
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws(SwitchyardError) -> T {
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw SwitchyardError(
                code: .decoding,
                message: "a channel message does not decode as \(T.self): \(Self.describe(error))",
                underlyingError: error
            )
        }
    }

    /// What does not fit, without any of the message's values.
    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): "the member \"\(key.stringValue)\" is missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not \(type)"
        case .dataCorrupted: "it is not JSON"
        default: "it does not decode"
        }
    }
}

import Foundation

extension SwitchyardError {
    /// The ``Code/limitExceeded`` error that ends a decoded stream whose line, event or record is
    /// longer than its limit; `unit` says which ("a line of the event stream").
    static func streamElementTooLarge(unit: String, limit: Int) -> SwitchyardError {
        SwitchyardError(
            code: .limitExceeded,
            message: "\(unit) is longer than the limit of \(limit) bytes; raise maximumSize if the server's are that long"
        )
    }

    /// The ``Code/decoding`` error for a streamed value that does not decode: which value (`subject`)
    /// and what does not fit, as a whole body's decoding error says it — never the bytes themselves.
    static func streamElementUndecodable(_ error: any Error, subject: String, output: Any.Type, bytes: Data) -> SwitchyardError {
        var message = DecodingFailureMessage.describe(error, output: output, body: bytes, subject: subject)
        if !message.hasPrefix(subject) { message = "\(subject): \(message)" }
        return SwitchyardError(code: .decoding, message: message, underlyingError: error)
    }
}

public import Foundation

extension SwitchyardError: LocalizedError {
    /// The text to show the app's user — what `localizedDescription`, a SwiftUI alert or a label
    /// shows: ``userMessage`` when one was chosen, else a short general sentence for the ``code``
    /// ("The server's answer could not be read. Please try again later.").
    ///
    /// It never holds the developer's ``message``, a request's path or query, a body or the server's
    /// detail beyond its business message, and every URL in a chosen text passes through
    /// ``Redaction/redactURLs(in:)``, so a token in a link never reaches the screen. Map the texts
    /// per code where the service is registered: an `EnvelopeStage`'s `messages` closure maps
    /// business codes, and the body that is not an envelope at all:
    ///
    /// ```swift
    /// EnvelopeStage(successCodes: [0]) { code, _ in
    ///     switch code {
    ///     case "4004": "This item is sold out."
    ///     case nil: "The server's data is malformed, try again later."
    ///     default: nil   // the server's message
    ///     }
    /// }
    /// ```
    public var errorDescription: String? {
        guard let userMessage, !userMessage.isEmpty else { return Self.generalUserMessage(for: code) }
        return Redaction.default.redactURLs(in: userMessage)
    }

    /// A general sentence for a code, for errors no one chose a text for.
    static func generalUserMessage(for code: Code) -> String {
        switch code {
        case .transport, .pinning: "The server could not be reached. Please check your connection and try again."
        case .timeout: "The server took too long to answer. Please try again."
        case .cancelled: "The request was cancelled."
        case .invalidResponse, .decoding, .contentType, .integrity, .limitExceeded:
            "The server's answer could not be read. Please try again later."
        case .authentication: "Please sign in again."
        case .cacheMiss: "This is not available offline."
        case .httpStatus, .business, .redirect: "The server could not complete the request. Please try again later."
        default: "The request could not be completed."
        }
    }
}

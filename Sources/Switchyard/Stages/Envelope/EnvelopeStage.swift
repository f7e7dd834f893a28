import Foundation

/// Checks the business envelope many backends wrap every answer in — `{"code":…,"msg":…,"data":…}` —
/// and hands the payload under the data key to the stages outside it and to decoding.
///
/// - Members are named by key paths: `code`, or `status.code` for a nested member (``Keys``).
/// - Success is decided by ``SuccessRule``: a set of codes (numbers or strings on the wire, compared
///   as text: `100` and `"100"` match), a boolean member (`{"success":true}`), or nothing at all for
///   envelopes that only wrap the data.
/// - On success the envelope's code and message are kept in the response's metadata
///   (``Outcome``; `result.metadata[EnvelopeStage.Outcome.self]`), and so, typed, are the members
///   beside them (`total`, `hasMore`, `sign`, a server time) when the service declares a type for them
///   with ``decodingSiblings(as:)``.
/// - A business failure becomes a ``SwitchyardError`` with the code ``SwitchyardError/Code/business``,
///   the whole response in ``SwitchyardError/response`` and an ``EnvelopeFailure`` detail with the
///   server's raw code and message. What the user is shown (``SwitchyardError/userMessage``, the
///   error's `localizedDescription`) is what the ``messages`` hook maps the code to — a localized
///   sentence, which is then the error's ``SwitchyardError/message`` too, with no code appended — or
///   else the server's message (the developer's ``SwitchyardError/message`` then reads
///   `server's message (code 4004)`). Handlers registered for special codes (re-login, forced
///   upgrade) run before the error is thrown.
/// - A body the stage cannot read as an envelope fails as ``SwitchyardError/Code/invalidResponse``
///   (below); the ``messages`` hook is asked for its user-facing text with the code `nil` — the
///   "the server's data is malformed, try again later" of many apps.
///
/// Register it **before** (outside) a decryption stage and **after** nothing that needs the whole
/// envelope: on the way out it runs after the stages registered behind it, so it sees the decrypted
/// body, and the stages registered ahead of it see only the payload.
///
/// ```swift
/// EnvelopeStage(successCodes: [100], handlers: [401001: { error, context in await session.expire() }])
/// EnvelopeStage(keys: .init(code: "status.code", message: "status.msg", data: "result.data"), successCodes: [0])
/// EnvelopeStage(keys: .init(message: "error", data: "payload"), success: .flag("ok"))
/// EnvelopeStage(successCodes: [0]) { code, _ in
///     switch code {
///     case "4004": "This item is sold out."                          // a business code
///     case nil: "The server's data is malformed, try again later."   // not an envelope at all
///     default: nil                                                   // the server's message
///     }
/// }
/// ```
///
/// A response with an error status (outside 200–299) whose body is not an envelope — a gateway's
/// 503 page — passes on unchanged, so the status check and a ``RetryStage`` outside see the HTTP
/// status. An error status that does carry an envelope is checked like any other; its business
/// error keeps the status in its response, so a retry policy decides on the status as usual.
///
/// The stage reads only the service's own words:
/// - An answer a signing or encryption stage let through unverified (``Response/isUnverified``: an
///   unsigned or unsealed `401` from an auth proxy, say) is never read as an envelope. With an error
///   status it passes on unchanged and fails the call as ``SwitchyardError/Code/httpStatus``, its body
///   readable in ``SwitchyardError/response``; a `2xx` is refused as
///   ``SwitchyardError/Code/invalidResponse``. A ``SwitchyardError/Code/business`` error therefore
///   always carries a code the service itself sent.
/// - A member the stage reads (the code, message, data or flag, or an object on the way to one) named
///   twice is refused as ``SwitchyardError/Code/invalidResponse``, with or without a `null`: readers
///   disagree on which one counts.
/// - `204`, `205`, `304` and answers to `HEAD` have no body by HTTP's rules and pass on untouched.
public struct EnvelopeStage: ResponseStage {
    /// The key paths of the envelope's members: dot-separated member names from the top-level
    /// object (`code`, `status.code`, `result.data`).
    public struct Keys: Sendable, Hashable {
        /// The business code's path; `code` by default.
        public var code: String
        /// The message's path; `msg` by default.
        public var message: String
        /// The payload's path; `data` by default.
        public var data: String

        /// Creates key paths.
        public init(code: String = "code", message: String = "msg", data: String = "data") {
            self.code = code
            self.message = message
            self.data = data
        }
    }

    /// How the stage tells success from a business failure.
    public enum SuccessRule: Sendable, Hashable {
        /// The code member (``Keys/code``) holds one of these codes, as text.
        case codes(Set<String>)
        /// The member at this path is the JSON literal `true`; anything else — `false`, a missing
        /// member, the string `"true"`, `1` — is a failure, whose code is the code member's when there
        /// is one, else `false`.
        case flag(String)
        /// Every envelope is a success: the stage only unwraps the data.
        case always
    }

    /// What the stage keeps of a successful envelope, in ``Response/metadata`` and ``CallResult/metadata``.
    public struct Outcome: ResponseMetadataKey, Sendable, Hashable {
        /// ``Outcome`` itself is the stored value.
        public typealias Value = Outcome
        /// The business code as text, if the envelope had one.
        public let code: String?
        /// The server's message, if the envelope had one.
        public let message: String?

        /// Creates an outcome.
        public init(code: String?, message: String?) {
            self.code = code
            self.message = message
        }
    }

    /// Runs for a business failure with a given code, before the error is thrown.
    public typealias Handler = @Sendable (SwitchyardError, CallContext) async -> Void
    /// Maps a business code and the server's message to the sentence the user is shown (a localized
    /// message; ``SwitchyardError/userMessage``); `nil` keeps the server's. The code is `nil` for a
    /// body the stage cannot read as an envelope (a ``SwitchyardError/Code/invalidResponse`` error,
    /// whose server's message is `nil` too); returning `nil` then leaves the general text.
    public typealias MessageMapper = @Sendable (_ code: String?, _ serverMessage: String?) -> String?

    /// The member key paths.
    public let keys: Keys
    /// How success is decided.
    public let success: SuccessRule
    /// Handlers by code, as text.
    public let handlers: [String: Handler]
    /// Maps codes (and a body that is not an envelope: `nil`) to user-facing messages.
    public let messages: MessageMapper?
    /// Decodes the members beside the payload into the response's metadata; `nil` unless the service
    /// declared a type for them (``decodingSiblings(as:)``).
    var siblings: (@Sendable (_ envelope: Data, _ data: Range<Int>?, _ metadata: inout ResponseMetadata) throws(SwitchyardError) -> Void)?

    /// The codes that mean success, as text (empty unless ``success`` is ``SuccessRule/codes(_:)``).
    public var successCodes: Set<String> {
        if case .codes(let codes) = success { return codes }
        return []
    }

    /// ``StageID/envelope``.
    public var id: StageID { .envelope }

    /// Creates the stage with numeric codes.
    ///
    /// - Parameters:
    ///   - keys: the member key paths.
    ///   - successCodes: the codes that mean success.
    ///   - handlers: handlers for special codes.
    ///   - messages: maps codes to user-facing messages; `nil` keeps the server's.
    public init(keys: Keys = Keys(), successCodes: Set<Int>, handlers: [Int: Handler] = [:], messages: MessageMapper? = nil) {
        self.init(
            keys: keys,
            success: .codes(Set(successCodes.map(String.init))),
            handlers: Dictionary(uniqueKeysWithValues: handlers.map { (String($0.key), $0.value) }),
            messages: messages
        )
    }

    /// Creates the stage with textual codes (for backends that send `"SUCCESS"`).
    public init(keys: Keys = Keys(), successCodeTexts: Set<String>, handlers: [String: Handler] = [:], messages: MessageMapper? = nil) {
        self.init(keys: keys, success: .codes(successCodeTexts), handlers: handlers, messages: messages)
    }

    /// Creates the stage with any success rule.
    ///
    /// - Parameters:
    ///   - keys: the member key paths.
    ///   - success: how success is decided.
    ///   - handlers: handlers for special codes, as text.
    ///   - messages: maps codes to user-facing messages; `nil` keeps the server's.
    public init(keys: Keys = Keys(), success: SuccessRule, handlers: [String: Handler] = [:], messages: MessageMapper? = nil) {
        self.keys = keys
        self.success = success
        self.handlers = handlers
        self.messages = messages
    }

    /// Checks the envelope and replaces the body with the payload.
    public func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        // A streamed body is never read whole here: the call must skip the stage.
        if case .stream = response.body { _ = try response.bodyBytes(for: id) }
        guard case .bytes(let body) = response.body else { return }  // a download written to a file carries no envelope
        // HTTP says these carry no body: there is no envelope to read.
        if [204, 205, 304].contains(response.status.code) || request.method == .head { return }
        // An error status without an envelope (a proxy's 503 page) passes on as it is, so that the
        // status check and a retry stage outside see the HTTP status, not a malformed envelope.
        let errorStatus = !(200...299).contains(response.status.code)
        // An answer nobody vouched for is not the service's: its code and message are the sender's choice.
        if response.isUnverified {
            if errorStatus { return }
            throw unreadable(
                SwitchyardError(
                    code: .invalidResponse,
                    message: "the response was not verified, so its envelope is not read as the service's",
                    response: response
                )
            )
        }
        let envelope: EnvelopeReader
        do {
            var paths = [keys.code, keys.message, keys.data]
            if case .flag(let path) = success { paths.append(path) }
            envelope = try EnvelopeReader(body, paths: paths)
        } catch {
            if errorStatus { return }
            throw unreadable(
                SwitchyardError(
                    code: .invalidResponse,
                    message: "the response is not a JSON envelope object: \(error.message)",
                    underlyingError: error
                )
            )
        }
        let code = envelope.scalar(at: keys.code)
        let message = envelope.scalar(at: keys.message)
        let failedCode: String?
        switch success {
        case .codes(let codes):
            guard let code else {
                if errorStatus { return }
                throw unreadable(SwitchyardError(code: .invalidResponse, message: "the envelope has no usable '\(keys.code)' member"))
            }
            failedCode = codes.contains(code) ? nil : code
        case .flag(let path):
            failedCode = envelope.isTrue(at: path) ? nil : code ?? "false"
        case .always:
            failedCode = nil
        }
        if let failedCode {
            let mapped = messages?(failedCode, message)
            var error = SwitchyardError(
                code: .business,
                message: mapped ?? "\(message ?? "no message") (code \(failedCode))",
                response: response,
                detail: EnvelopeFailure(businessCode: failedCode, serverMessage: message)
            )
            error.userMessage = mapped ?? message
            if let handler = handlers[failedCode] { await handler(error, context) }
            throw error
        }
        response.metadata[Outcome.self] = Outcome(code: code, message: message)
        if let siblings {
            do {
                try siblings(body, envelope.range(at: keys.data), &response.metadata)
            } catch {
                throw error.carrying(response)
            }
        }
        response.body = .bytes(envelope.raw(at: keys.data) ?? Data("null".utf8))
    }

    /// `error` (a body the stage cannot read as an envelope) with the user-facing text the
    /// ``messages`` hook gives a `nil` code, if any.
    private func unreadable(_ error: SwitchyardError) -> SwitchyardError {
        var error = error
        error.userMessage = messages?(nil, nil)
        return error
    }
}

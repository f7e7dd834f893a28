import Foundation

/// Checks the business envelope many backends wrap every answer in — `{"code":…,"msg":…,"data":…}` —
/// and hands the payload under the data key to the stages outside it and to decoding.
///
/// A code outside ``successCodes`` becomes a ``SwitchyardError`` with the code
/// ``SwitchyardError/Code/business``, the backend's message, the whole response in
/// ``SwitchyardError/response`` and an ``EnvelopeFailure`` detail with the business code and the
/// server's message.
/// Handlers registered for special codes (re-login, forced upgrade) run before the error is thrown.
///
/// Register it **before** (outside) a decryption stage and **after** nothing that needs the whole
/// envelope: on the way out it runs after the stages registered behind it, so it sees the decrypted
/// body, and the stages registered ahead of it see only the payload.
///
/// ```swift
/// EnvelopeStage(successCodes: [100], handlers: [401001: { error, context in await session.expire() }])
/// EnvelopeStage(keys: .init(code: "errno", message: "errmsg", data: "result"), successCodes: [0])
/// ```
///
/// Codes may be numbers or strings on the wire; they are compared as text (`100` and `"100"` match).
///
/// A response with an error status (outside 200–299) whose body is not an envelope — a gateway's
/// 503 page — passes on unchanged, so the status check and a ``RetryStage`` outside see the HTTP
/// status; an error status that does carry an envelope is checked like any other.
public struct EnvelopeStage: ResponseStage {
    /// The names of the envelope's members.
    public struct Keys: Sendable, Hashable {
        /// The business code's key; `code` by default.
        public var code: String
        /// The message's key; `msg` by default.
        public var message: String
        /// The payload's key; `data` by default.
        public var data: String

        /// Creates key names.
        public init(code: String = "code", message: String = "msg", data: String = "data") {
            self.code = code
            self.message = message
            self.data = data
        }
    }

    /// Runs for a business failure with a given code, before the error is thrown.
    public typealias Handler = @Sendable (SwitchyardError, CallContext) async -> Void

    /// The member names.
    public let keys: Keys
    /// The codes that mean success, as text.
    public let successCodes: Set<String>
    /// Handlers by code, as text.
    public let handlers: [String: Handler]

    /// ``StageID/envelope``.
    public var id: StageID { .envelope }

    /// Creates the stage with numeric codes.
    ///
    /// - Parameters:
    ///   - keys: the member names.
    ///   - successCodes: the codes that mean success.
    ///   - handlers: handlers for special codes.
    public init(keys: Keys = Keys(), successCodes: Set<Int>, handlers: [Int: Handler] = [:]) {
        self.keys = keys
        self.successCodes = Set(successCodes.map(String.init))
        self.handlers = Dictionary(uniqueKeysWithValues: handlers.map { (String($0.key), $0.value) })
    }

    /// Creates the stage with textual codes (for backends that send `"SUCCESS"`).
    public init(keys: Keys = Keys(), successCodeTexts: Set<String>, handlers: [String: Handler] = [:]) {
        self.keys = keys
        self.successCodes = successCodeTexts
        self.handlers = handlers
    }

    /// Checks the envelope and replaces the body with the payload.
    public func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        guard case .bytes(let body) = response.body else { return }  // a download written to a file carries no envelope
        // An error status without an envelope (a proxy's 503 page) passes on as it is, so that the
        // status check and a retry stage outside see the HTTP status, not a malformed envelope.
        let errorStatus = !(200...299).contains(response.status.code)
        let members: [String: JSONMembers.Member]
        do {
            members = try JSONMembers.topLevel(of: body)
        } catch {
            if errorStatus { return }
            throw SwitchyardError(
                code: .invalidResponse,
                message: "the response is not a JSON envelope object: \(error.message)",
                underlyingError: error
            )
        }
        guard let codeMember = members[keys.code], let code = codeMember.scalarText(in: body) else {
            if errorStatus { return }
            throw SwitchyardError(code: .invalidResponse, message: "the envelope has no usable '\(keys.code)' member")
        }
        guard successCodes.contains(code) else {
            let message = members[keys.message].flatMap { $0.scalarText(in: body) } ?? "no message"
            let error = SwitchyardError(
                code: .business,
                message: "\(message) (code \(code))",
                response: response,
                detail: EnvelopeFailure(businessCode: code, serverMessage: members[keys.message].flatMap { $0.scalarText(in: body) })
            )
            if let handler = handlers[code] { await handler(error, context) }
            throw error
        }
        if let data = members[keys.data] {
            response.body = .bytes(body.subdata(in: data.valueRange))
        } else {
            response.body = .bytes(Data("null".utf8))
        }
    }
}

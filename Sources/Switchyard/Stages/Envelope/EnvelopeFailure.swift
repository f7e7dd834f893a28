/// What an ``EnvelopeStage`` knows about a business failure, attached to the
/// ``SwitchyardError/Code/business`` error it throws.
///
/// The code and message are the service's own: an answer a signing or encryption stage let through
/// unverified (``Response/isUnverified``, an auth proxy's `401` envelope, say) never becomes a business
/// error — it fails as ``SwitchyardError/Code/httpStatus`` with its body in ``SwitchyardError/response``.
///
/// ```swift
/// catch let error as SwitchyardError where error.code == .business {
///     if error.detail(as: EnvelopeFailure.self)?.businessCode == "401001" { await session.expire() }
/// }
/// ```
public struct EnvelopeFailure: SwitchyardErrorDetail, Hashable {
    /// The envelope's business code, as text (`4004`, `"SUCCESS"`).
    public let businessCode: String
    /// The envelope's message member exactly as the server sent it, or `nil` when it had none.
    public let serverMessage: String?

    /// Creates the detail.
    ///
    /// - Parameters:
    ///   - businessCode: the business code as text.
    ///   - serverMessage: the server's message, if any.
    public init(businessCode: String, serverMessage: String?) {
        self.businessCode = businessCode
        self.serverMessage = serverMessage
    }

    /// `business code 4004`.
    public var summary: String { "business code \(businessCode)" }
}

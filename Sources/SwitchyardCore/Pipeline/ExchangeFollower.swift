/// What may take an exchange with the transport further once it is answered — a service's redirect
/// following — without being one of the service's stages: the pipeline asks ``follows(_:)`` of every
/// answer (a plain function call) and calls ``follow(_:for:context:send:)`` only when it says yes.
package protocol ExchangeFollower: Sendable {
    /// Whether `response` is an answer to take further.
    func follows(_ response: Response) -> Bool

    /// The answer that ends the exchange `response` started.
    ///
    /// - Parameters:
    ///   - response: the transport's answer, for which ``follows(_:)`` said yes.
    ///   - request: the request it answered.
    ///   - context: the call's context.
    ///   - send: sends one request to the transport.
    func follow(_ response: Response, for request: Request, context: CallContext, send: NextStage) async throws -> Response
}

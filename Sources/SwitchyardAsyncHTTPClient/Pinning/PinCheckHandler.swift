package import NIOCore
import NIOSSL
import NIOTLS
package import SwitchyardCore

/// Checks, once the TLS handshake with the upstream server has completed (chain and host name
/// already verified by NIOSSL), that the server's certificate carries a pinned public key; fulfils
/// `verdict` with the outcome and closes the connection on any failure. `package`: a channel's
/// WebSocket connection to a pinned service (SwitchyardChannels) is held to the same check.
package final class PinCheckHandler: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = ByteBuffer

    private let pins: PublicKeyPins
    private let verdict: EventLoopPromise<Void>
    private var decided = false

    /// A check of `pins` that fulfils `verdict` once the TLS handshake has completed or failed.
    package init(pins: PublicKeyPins, verdict: EventLoopPromise<Void>) {
        self.pins = pins
        self.verdict = verdict
    }

    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent {
            decide(context: context, outcome: check(context: context))
        }
        context.fireUserInboundEventTriggered(event)
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        decide(context: context, outcome: .tls(String(describing: error)))
        context.fireErrorCaught(error)
    }

    package func channelInactive(context: ChannelHandlerContext) {
        decide(context: context, outcome: .tls("the server closed the connection during the TLS handshake"))
        context.fireChannelInactive()
    }

    /// The pin check on the verified leaf certificate.
    private func check(context: ChannelHandlerContext) -> PinnedTunnelFailure? {
        guard let tls = try? context.pipeline.syncOperations.handler(type: NIOSSLHandler.self), let certificate = tls.peerCertificate
        else {
            return .tls("the server presented no certificate")
        }
        guard let key = try? certificate.extractPublicKey().toSPKIBytes() else {
            return .tls("the server's certificate has no readable public key")
        }
        return pins.matches(subjectPublicKeyInfo: key) ? nil : .pinMismatch(presented: PublicKeyPins.pin(ofSubjectPublicKeyInfo: key))
    }

    private func decide(context: ChannelHandlerContext, outcome: PinnedTunnelFailure?) {
        guard !decided else { return }
        decided = true
        if let outcome {
            verdict.fail(outcome)
            context.close(promise: nil)
        } else {
            verdict.succeed()
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}

/// Why a pinned tunnel refused or lost an upstream connection.
package enum PinnedTunnelFailure: Error, Sendable, Equatable {
    /// The verified certificate carried none of the pinned keys; `presented` is its own pin.
    case pinMismatch(presented: String)
    /// The TLS handshake failed (an untrusted chain, a wrong host name, a protocol error).
    case tls(String)
    /// The server could not be reached.
    case connect(String)
}

extension PinnedTunnelFailure {
    /// The typed error of this failure on a connection of `service` to `origin`: ``pinMismatch(presented:)``
    /// is `SwitchyardError.Code.pinning` (its message ends with `outcome`: what did not happen), a TLS or
    /// connection failure `SwitchyardError.Code.transport`. What a pinned call and a pinned channel both throw.
    package func error(service: ServiceID, origin: String, outcome: String, underlyingError: any Error) -> SwitchyardError {
        switch self {
        case .pinMismatch(let presented):
            return SwitchyardError(
                code: .pinning,
                message: "service '\(service)': the server at \(origin) presented a public key (\(presented)) that matches "
                    + "none of the service's pins; \(outcome)",
                underlyingError: underlyingError
            )
        case .tls(let reason):
            return SwitchyardError(
                code: .transport,
                message: "service '\(service)': TLS with \(origin) failed: \(reason)",
                underlyingError: underlyingError
            )
        case .connect(let reason):
            return SwitchyardError(
                code: .transport,
                message: "service '\(service)': could not connect to \(origin): \(reason)",
                underlyingError: underlyingError
            )
        }
    }
}

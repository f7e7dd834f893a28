/// Receives what only the transport knows — that a request has started going out, and how far its
/// upload and download have got — and passes it to whoever set it on the call (the features' accessory stage).
///
/// This is the transports' reporting channel inside the package, not a hook for apps: to observe
/// calls, write an accessory; a transport of your own reports through
/// ``CallContext/reportTransferStarted()``, ``CallContext/reportSent(_:)`` and
/// ``CallContext/reportReceived(_:)``, which write here. The accessory stage, the progress blocks of
/// call options and a call handle's progress all read this one channel.
///
/// The callbacks must return quickly; they run on the transport's task.
package struct TransferObserver: Sendable {
    /// Called once when the transport starts sending the request.
    package let started: @Sendable () -> Void
    /// Called as the request body goes out.
    package let sent: @Sendable (TransferProgress) -> Void
    /// Called as the response body comes in.
    package let received: @Sendable (TransferProgress) -> Void

    /// Creates an observer.
    package init(
        started: @escaping @Sendable () -> Void = {},
        sent: @escaping @Sendable (TransferProgress) -> Void = { _ in },
        received: @escaping @Sendable (TransferProgress) -> Void = { _ in }
    ) {
        self.started = started
        self.sent = sent
        self.received = received
    }

    /// An observer that reports to `self` and then to `other`.
    package func combined(with other: TransferObserver?) -> TransferObserver {
        guard let other else { return self }
        return TransferObserver(
            started: {
                self.started()
                other.started()
            },
            sent: {
                self.sent($0)
                other.sent($0)
            },
            received: {
                self.received($0)
                other.received($0)
            }
        )
    }

    /// The context key it is stored under.
    enum Key: CallContextKey {
        typealias Value = TransferObserver
    }
}

extension CallContext {
    /// Where a transport reports the start of sending and the progress of a call's upload and
    /// download; `nil` when nobody is listening (then transports skip the bookkeeping).
    package var transferObserver: TransferObserver? {
        get { self[TransferObserver.Key.self] }
        set { self[TransferObserver.Key.self] = newValue }
    }

    /// Whether anyone observes this call's transfer: a transport may skip counting bytes when not.
    public var observesTransfer: Bool { transferObserver != nil }

    /// Tells the call's observers that the transport has started sending the request; a transport
    /// calls it once per attempt, as the request head goes out.
    public func reportTransferStarted() { transferObserver?.started() }

    /// Tells the call's observers how much of the request body has gone out (called in order, on
    /// the transport's task: return quickly).
    public func reportSent(_ progress: TransferProgress) { transferObserver?.sent(progress) }

    /// Tells the call's observers how much of the response body has come in (called in order, on
    /// the transport's task: return quickly).
    public func reportReceived(_ progress: TransferProgress) { transferObserver?.received(progress) }
}

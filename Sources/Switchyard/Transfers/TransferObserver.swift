/// Receives what only the transport knows — that a request has started going out, and how far its
/// upload and download have got — and passes it to whoever set it on the call (``AccessoryStage``).
///
/// This is the transport's reporting channel, not a hook for apps: to observe calls, write an
/// ``Accessory``. Transport authors report through it; ``AccessoryStage`` turns the reports into
/// accessory events.
///
/// Transports report through ``CallContext/transferObserver``: ``started`` when they begin to
/// send, ``sent`` as the body goes out, ``received`` as the response body comes in. The
/// callbacks must return quickly; they run on the transport's task.
public struct TransferObserver: Sendable {
    /// Called once when the transport starts sending the request.
    public let started: @Sendable () -> Void
    /// Called as the request body goes out.
    public let sent: @Sendable (TransferProgress) -> Void
    /// Called as the response body comes in.
    public let received: @Sendable (TransferProgress) -> Void

    /// Creates an observer.
    public init(
        started: @escaping @Sendable () -> Void = {},
        sent: @escaping @Sendable (TransferProgress) -> Void = { _ in },
        received: @escaping @Sendable (TransferProgress) -> Void = { _ in }
    ) {
        self.started = started
        self.sent = sent
        self.received = received
    }

    /// An observer that reports to `self` and then to `other`.
    public func combined(with other: TransferObserver?) -> TransferObserver {
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
    public var transferObserver: TransferObserver? {
        get { self[TransferObserver.Key.self] }
        set { self[TransferObserver.Key.self] = newValue }
    }
}

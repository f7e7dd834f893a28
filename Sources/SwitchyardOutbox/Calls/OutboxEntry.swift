public import Foundation
public import Switchyard

/// A queued call as the outbox knows it: its ids, where it is, and — once it is finished — what
/// became of it. Kept in the store, so an app restarted after a kill can still learn the outcome.
public struct OutboxEntry: Sendable, Identifiable {
    /// Where an entry is.
    public enum State: Int, Sendable, Hashable, CaseIterable {
        /// Waiting to be sent, or between attempts.
        case pending = 0
        /// Held back because its account's session ended with parking
        /// (``Outbox/endSession(account:parking:)``) until that account's session begins again.
        case parked = 1
        /// The server accepted it (a `2xx`, or the service's acceptable statuses).
        case delivered = 2
        /// It will never succeed: a `4xx` other than 408 and 429, an answer that could not be read,
        /// a file gone or changed, or older than the maximum age. ``OutboxEntry/error`` says which.
        case deadLetter = 3
        /// Cancelled by the app, or dropped when its account's session ended; it will not be sent.
        case cancelled = 4
    }

    /// The entry's id, chosen at enqueue.
    public let id: String
    /// The `Idempotency-Key` every attempt of this call carries.
    public let idempotencyKey: String
    /// The queue it belongs to.
    public let queue: String
    /// Its tags.
    public let tags: Set<RequestTag>
    /// Where it is.
    public let state: State
    /// The attempts that reached the transport and failed transiently, or were answered.
    public let attempts: Int
    /// When it was enqueued.
    public let enqueuedAt: Date
    /// The status of the answer that finished it, when one arrived.
    public let status: Int?
    /// The body of a delivered call's answer (for example the id the server gave an order).
    public let body: Data?
    /// Why a dead letter will never succeed.
    public let error: SwitchyardError?
}

import Foundation
import HTTPTypes
import Switchyard

/// One attempt at a queued call and what it means for the entry.
enum OutboxAttempt {
    /// The server accepted the call.
    case delivered(status: Int, body: Data)
    /// The call will never succeed.
    case dead(SwitchyardError)
    /// The call failed for now; `retryAfter` is the wait the server asked for.
    case transient(SwitchyardError, retryAfter: Duration?)
    /// The attempt was cancelled (the outbox stopped, or the account's session ended): it does not count.
    case cancelled

    /// Whether the attempt failed to connect (``SwitchyardError/Code/transport``): its retry waits
    /// for connectivity to return as well as for its backoff.
    var failedToConnect: Bool {
        if case .transient(let error, _) = self { return error.code == .transport }
        return false
    }

    /// Sends `head` through `client` — through the service's pipeline, so credentials, common
    /// parameters and signatures are made now — with its `Idempotency-Key`.
    static func send(_ head: QueuedHead, client: APIClient, deadline: Duration) async -> OutboxAttempt {
        let call: StoredCall
        do {
            call = try JSONDecoder().decode(StoredCall.self, from: head.payload)
        } catch {
            return .dead(SwitchyardError(code: .storeCorrupt, message: "the queued call cannot be read back", underlyingError: error))
        }
        let endpoint: DynamicEndpoint<Response>
        do {
            endpoint = try call.endpoint(idempotencyKey: head.idempotencyKey)
        } catch {
            return .dead(error)
        }
        var options = CallOptions(deadline: deadline, tags: head.tags)
        options.account = call.account
        do {
            let result = try await client.send(endpoint, options: options)
            return .delivered(status: result.status.code, body: result.value.bytes)
        } catch {
            return classify(error)
        }
    }

    /// Transient: connection failures, timeouts, 408, 429 and 5xx (with or without a business
    /// envelope). Cancellation leaves the entry as it was. Everything else — other 4xx, undecodable
    /// or unverifiable answers, refused requests — is a dead letter.
    static func classify(_ error: SwitchyardError) -> OutboxAttempt {
        switch error.code {
        case .cancelled:
            return .cancelled
        case .transport, .timeout, .authentication:
            return .transient(error, retryAfter: nil)
        case .httpStatus, .business:
            guard let status = error.status?.code else { return .dead(error) }
            if status == 408 || status == 429 || status >= 500 {
                return .transient(error, retryAfter: error.response.flatMap { retryAfter($0.headerFields) })
            }
            return .dead(error)
        default:
            return .dead(error)
        }
    }

    /// A `Retry-After` in seconds.
    private static func retryAfter(_ fields: HTTPFields) -> Duration? {
        guard let value = fields[.retryAfter], let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 else {
            return nil
        }
        return .seconds(seconds)
    }
}

import COpenSSL
import Synchronization

/// OpenSSL cipher contexts that already hold one key's schedule, kept for that key's next use:
/// keying a context (expanding the AES key, deriving GCM's hash key) costs more than sealing a small
/// body with it. Each context is used by one caller at a time; at most ``limit`` wait idle; all are
/// freed with the key, and OpenSSL clears a context's key material when it frees it.
final class KeyedContextPool: Sendable {
    /// The most contexts kept idle; more callers at once each key a context of their own.
    static let limit = 8

    /// Idle contexts, as addresses (an `OpaquePointer` is not `Sendable`; each context is owned by
    /// the pool while idle and by exactly one caller while in use).
    private let idle = Mutex<[UInt]>([])

    /// An idle context keyed for this pool's key, if there is one; the caller owns it until it gives
    /// it back with ``giveBack(_:)`` or frees it.
    func take() -> OpaquePointer? {
        idle.withLock { $0.popLast() }.flatMap { OpaquePointer(bitPattern: $0) }
    }

    /// Keeps `context` — keyed for this pool's key and in a sound state — for the next caller, or
    /// frees it when enough are idle.
    func giveBack(_ context: OpaquePointer) {
        let kept = idle.withLock { idle in
            guard idle.count < Self.limit else { return false }
            idle.append(UInt(bitPattern: context))
            return true
        }
        if !kept { EVP_CIPHER_CTX_free(context) }
    }

    deinit {
        for address in idle.withLock({ $0 }) { EVP_CIPHER_CTX_free(OpaquePointer(bitPattern: address)) }
    }
}

import COpenSSL
import Synchronization

/// OpenSSL contexts that already hold one key — an AES-GCM context with the expanded key, an HMAC
/// context with its inner and outer pads — kept for that key's next use: keying a context costs more
/// than sealing or authenticating a small body with it. Each context is used by one caller at a
/// time; at most ``limit`` of each kind wait idle; all are freed with the key, and OpenSSL clears a
/// context's key material when it frees it.
final class KeyedContextPool: Sendable {
    /// What a context is keyed for.
    enum Kind: Int, CaseIterable {
        case aesGCM
        case hmacSHA256
        case hmacSHA1
        case hmacMD5
    }

    /// The most contexts of one kind kept idle; more callers at once each key a context of their own.
    static let limit = 8

    /// Idle contexts by kind, as addresses (an `OpaquePointer` is not `Sendable`; each context is
    /// owned by the pool while idle and by exactly one caller while in use). Empty until a context
    /// is first given back, so a key used once costs no more than before.
    private let idle = Mutex<[[UInt]]>([])

    /// An idle context of `kind` keyed for this pool's key, if there is one; the caller owns it until
    /// it gives it back with ``giveBack(_:_:)`` or frees it with ``free(_:_:)``.
    func take(_ kind: Kind) -> OpaquePointer? {
        idle.withLock { idle in idle.isEmpty ? nil : idle[kind.rawValue].popLast() }.flatMap { OpaquePointer(bitPattern: $0) }
    }

    /// Keeps `context` — of `kind`, keyed for this pool's key and in a sound state — for the next
    /// caller, or frees it when enough are idle.
    func giveBack(_ context: OpaquePointer, _ kind: Kind) {
        let kept = idle.withLock { idle in
            if idle.isEmpty { idle = Array(repeating: [], count: Kind.allCases.count) }
            guard idle[kind.rawValue].count < Self.limit else { return false }
            idle[kind.rawValue].append(UInt(bitPattern: context))
            return true
        }
        if !kept { Self.free(context, kind) }
    }

    /// Frees a context of `kind` that is not given back (it failed part-way).
    static func free(_ context: OpaquePointer, _ kind: Kind) {
        switch kind {
        case .aesGCM: EVP_CIPHER_CTX_free(context)
        case .hmacSHA256, .hmacSHA1, .hmacMD5: EVP_MAC_CTX_free(context)
        }
    }

    deinit {
        for (index, addresses) in idle.withLock({ $0 }).enumerated() {
            guard let kind = Kind(rawValue: index) else { continue }
            for address in addresses {
                if let context = OpaquePointer(bitPattern: address) { Self.free(context, kind) }
            }
        }
    }
}

import COpenSSL

/// The bytes of a ``SymmetricKey``: allocated once, never mutated after initialization, and wiped
/// with `OPENSSL_cleanse` when the last copy of the key goes away — as are the AES-GCM and HMAC
/// contexts keyed with them (at most ``KeyedContextPool/limit`` idle of each kind, each holding the
/// expanded key or the HMAC pads), which OpenSSL clears as it frees them.
///
/// It is `@unchecked Sendable` because its state is an immutable buffer that is written during
/// initialization and read-only afterwards, and a pool of contexts that guards itself.
final class KeyStorage: @unchecked Sendable {
    /// The key bytes; valid for the lifetime of this object.
    let bytes: UnsafeMutableRawBufferPointer
    /// AES-GCM and HMAC contexts keyed with these bytes, for reuse (see ``KeyedContextPool``).
    let contexts = KeyedContextPool()

    /// Copies `source` into fresh storage.
    init(copying source: UnsafeRawBufferPointer) {
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: source.count, alignment: 16)
        if source.count > 0 {
            bytes.copyMemory(from: source)
        }
    }

    /// Allocates `byteCount` bytes and lets `fill` write every one of them; on failure the partial
    /// bytes are wiped and freed before the error propagates.
    init(
        byteCount: Int,
        fill: (UnsafeMutableRawBufferPointer) throws(CryptoError) -> Void
    ) throws(CryptoError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 16)
        do throws(CryptoError) {
            try fill(buffer)
        } catch {
            buffer.cleanse()
            buffer.deallocate()
            throw error
        }
        bytes = buffer
    }

    deinit {
        bytes.cleanse()
        bytes.deallocate()
    }
}

/// The 64-bit FNV-1a hash: stable across runs and platforms (unlike `Hasher`), for names on disk
/// and integrity checks of cache entries — not for security.
package enum FNV1a {
    package static func hash(_ bytes: some Sequence<UInt8>, offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = offsetBasis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}

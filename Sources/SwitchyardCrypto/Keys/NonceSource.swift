import Foundation
import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Random bytes for nonces and initialization vectors — values that must never repeat but need not
/// stay secret — drawn from OpenSSL's generator a pool at a time.
///
/// OpenSSL's generator costs about as much per call for 12 bytes as for 512 (a reseed check, the
/// process id, a DRBG update), and a sealed, signed call asks it for three nonces. The pool hands
/// each byte out once and wipes it as it goes, so it never holds a value in use; a forked child
/// starts with an empty pool (a fork handler bumps ``forks``), so parent and child never share one.
/// Keys never come from here: ``SecureRandom`` fills them directly.
enum NonceSource {
    /// The bytes drawn from OpenSSL at once.
    private static let poolSize = 512
    /// The most a single draw takes from the pool; larger requests go to OpenSSL directly.
    private static let largestDraw = 64

    private struct Pool {
        var bytes = [UInt8](repeating: 0, count: NonceSource.poolSize)
        /// The first byte not yet handed out; the pool size when it is empty.
        var next = NonceSource.poolSize
        /// The fork count the pool was filled under.
        var generation = -1
    }

    private static let pool = Mutex(Pool())
    /// Forks seen by this process; the pool refills when it changes.
    private static let forks = Atomic<Int>(0)
    private static let forkHandler: Void = {
        _ = pthread_atfork(nil, nil, { NonceSource.forks.add(1, ordering: .relaxed) })
    }()

    /// Fills `buffer` with fresh random bytes for a nonce or an IV.
    ///
    /// - Throws: ``CryptoError/Code/randomFailure`` when OpenSSL's generator fails.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        guard buffer.count <= largestDraw, let output = buffer.baseAddress else {
            try SecureRandom.fill(buffer)
            return
        }
        _ = forkHandler
        let generation = forks.load(ordering: .relaxed)
        try pool.withLock { (pool: inout Pool) throws(CryptoError) in
            if pool.generation != generation || pool.next + buffer.count > poolSize {
                var failure: CryptoError?
                pool.bytes.withUnsafeMutableBytes { bytes in
                    do throws(CryptoError) {
                        try SecureRandom.fill(bytes)
                    } catch {
                        failure = error
                    }
                }
                if let failure { throw failure }
                pool.next = 0
                pool.generation = generation
            }
            pool.bytes.withUnsafeMutableBytes { bytes in
                let drawn = bytes.baseAddress! + pool.next
                output.copyMemory(from: drawn, byteCount: buffer.count)
                drawn.initializeMemory(as: UInt8.self, repeating: 0, count: buffer.count)
            }
            pool.next += buffer.count
        }
    }

    /// `count` fresh random bytes for a nonce or an IV.
    static func bytes(count: Int) throws(CryptoError) -> Data {
        var data = Data(count: count)
        try data.withMutableCryptoBytes { buffer throws(CryptoError) in try fill(buffer) }
        return data
    }
}

import Foundation
import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Random bytes for values that must never repeat but need not be unpredictable ahead of use — AES-GCM
/// nonces and the per-attempt request and signing nonces — drawn from OpenSSL's generator a pool at a
/// time.
///
/// OpenSSL's generator costs about as much per call for 12 bytes as for 512 (a reseed check, the
/// process id, a DRBG update), and a sealed, signed call asks it for three nonces. The pool hands
/// each byte out once and wipes it as it goes, so it never holds a value in use.
///
/// - A process whose id differs from the one that filled the pool (a forked child, however it was
///   forked) refills it before drawing, so parent and child never share a byte.
/// - The pool's lock is only tried, never waited on: a draw that finds it taken — by another thread,
///   or held forever in a child forked while another thread had it — asks OpenSSL directly.
/// - Keys and CBC IVs, which must be unpredictable, never come from here: ``SecureRandom`` fills them.
enum NonceSource {
    /// The bytes drawn from OpenSSL at once.
    private static let poolSize = 512
    /// The most a single draw takes from the pool; larger requests go to OpenSSL directly.
    private static let largestDraw = 64

    private struct Pool {
        var bytes = [UInt8](repeating: 0, count: NonceSource.poolSize)
        /// The first byte not yet handed out; the pool size when it is empty.
        var next = NonceSource.poolSize
        /// The process that filled the pool.
        var owner: pid_t = 0
    }

    private static let pool = Mutex(Pool())

    /// Fills `buffer` with fresh random bytes for a nonce.
    ///
    /// - Throws: ``CryptoError/Code/randomFailure`` when OpenSSL's generator fails.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        guard buffer.count <= largestDraw, let output = buffer.baseAddress else {
            try SecureRandom.fill(buffer)
            return
        }
        let process = getpid()
        let drawn: Bool? = try pool.withLockIfAvailable { (pool: inout Pool) throws(CryptoError) -> Bool in
            if pool.owner != process || pool.next + buffer.count > poolSize {
                try refill(&pool, for: process)
            }
            pool.bytes.withUnsafeMutableBytes { bytes in
                let source = bytes.baseAddress! + pool.next
                output.copyMemory(from: source, byteCount: buffer.count)
                source.initializeMemory(as: UInt8.self, repeating: 0, count: buffer.count)
            }
            pool.next += buffer.count
            return true
        }
        if drawn == nil { try SecureRandom.fill(buffer) }
    }

    /// Fills the pool afresh for `process`.
    private static func refill(_ pool: inout Pool, for process: pid_t) throws(CryptoError) {
        var failure: CryptoError?
        pool.bytes.withUnsafeMutableBytes { bytes in
            do throws(CryptoError) {
                try SecureRandom.fill(bytes)
            } catch {
                failure = error
            }
        }
        if let failure {
            pool.next = poolSize  // nothing half-filled is ever handed out
            throw failure
        }
        pool.next = 0
        pool.owner = process
    }

    /// `count` fresh random bytes for a nonce, as lower-case hexadecimal (two digits a byte): what
    /// `Digest.hex(try bytes(count: count))` gives, drawn into a buffer on the stack instead of a `Data`.
    static func hex(count: Int) throws(CryptoError) -> String {
        try withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { buffer throws(CryptoError) -> String in
            try fill(buffer)
            return Digest.hex(bytes: UnsafeRawBufferPointer(buffer))
        }
    }

    /// `count` fresh random bytes for a nonce.
    static func bytes(count: Int) throws(CryptoError) -> Data {
        var data = Data(count: count)
        try data.withMutableCryptoBytes { buffer throws(CryptoError) in try fill(buffer) }
        return data
    }
}

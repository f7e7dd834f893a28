import COpenSSL
import Foundation
import Switchyard

extension ContiguousBytes {
    /// Runs `body` over the bytes and carries its typed error through Foundation's `rethrows` API.
    func withCryptoBytes<R>(
        _ body: (UnsafeRawBufferPointer) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        let result: Result<R, CryptoError> = withUnsafeBytes { bytes in
            Result { () throws(CryptoError) -> R in try body(bytes) }
        }
        return try result.get()
    }

    /// The number of bytes.
    var cryptoByteCount: Int {
        withUnsafeBytes { $0.count }
    }

    /// A copy of the bytes as `Data` whose indices start at zero.
    var cryptoData: Data {
        withUnsafeBytes { Data($0) }
    }
}

extension Data {
    /// The UTF-8 of `parts` joined by `separator`, written straight into one buffer (see
    /// ``UTF8Join``): the bytes of `parts.joined(separator:)`, without the joined string.
    init(utf8Joining parts: [Substring], separator: UInt8) {
        self.init(count: UTF8Join.count(parts))
        withUnsafeMutableBytes { raw in _ = UTF8Join.write(parts, separator: separator, into: raw.bindMemory(to: UInt8.self)) }
    }

    /// A buffer of `count` bytes that is *not* zero-filled, for outputs OpenSSL overwrites entirely
    /// (zeroing a large output first would cost a pass over memory for nothing).
    static func uninitialized(count: Int) -> Data {
        guard count > 0, let memory = malloc(count) else { return Data(count: count) }
        return Data(bytesNoCopy: memory, count: count, deallocator: .free)
    }

    /// Runs `body` over the mutable bytes and carries its typed error through Foundation's `rethrows` API.
    mutating func withMutableCryptoBytes<R>(
        _ body: (UnsafeMutableRawBufferPointer) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        let result: Result<R, CryptoError> = withUnsafeMutableBytes { bytes in
            Result { () throws(CryptoError) -> R in try body(bytes) }
        }
        return try result.get()
    }
}

extension UnsafeRawBufferPointer {
    /// The first byte as the `const unsigned char *` OpenSSL expects, or `nil` when there is none.
    var bytePointer: UnsafePointer<UInt8>? {
        baseAddress?.assumingMemoryBound(to: UInt8.self)
    }
}

extension UnsafeMutableRawBufferPointer {
    /// The first byte as the `unsigned char *` OpenSSL expects, or `nil` when there is none.
    var bytePointer: UnsafeMutablePointer<UInt8>? {
        baseAddress?.assumingMemoryBound(to: UInt8.self)
    }

    /// Overwrites the bytes with zeros (`OPENSSL_cleanse`, which the compiler cannot optimize away).
    func cleanse() {
        if let baseAddress, count > 0 {
            OPENSSL_cleanse(baseAddress, count)
        }
    }
}

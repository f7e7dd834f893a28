import COpenSSL
import Foundation

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

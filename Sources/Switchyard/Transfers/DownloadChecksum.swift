public import Foundation

/// A hash computed over bytes fed in pieces, for checking a downloaded file without loading it.
///
/// `SwitchyardCrypto` provides SHA-256 over OpenSSL (`DownloadChecksum.sha256(hex:)`); the core
/// module has no cryptography of its own.
public protocol IncrementalHasher: AnyObject {
    /// Feeds the next bytes.
    func update(_ bytes: UnsafeRawBufferPointer)
    /// The digest of everything fed so far.
    func finalize() -> Data
}

/// The checksum a downloaded file must have before it is presented as complete.
///
/// ```swift
/// import SwitchyardCrypto
/// var download = DownloadOptions()
/// download.checksum = DownloadChecksum.sha256(hex: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
/// ```
///
/// A mismatch fails the download with ``SwitchyardError/Code/integrity`` and discards the file —
/// bytes that do not match are never resumed from either.
public struct DownloadChecksum: Sendable {
    /// The algorithm's name, such as `SHA-256`.
    public let algorithm: String
    /// The expected digest.
    public let expected: Data
    /// Makes a fresh hasher for the algorithm.
    public let makeHasher: @Sendable () -> any IncrementalHasher

    /// Creates a checksum from the expected digest and a hasher factory.
    public init(algorithm: String, expected: Data, makeHasher: @escaping @Sendable () -> any IncrementalHasher) {
        self.algorithm = algorithm
        self.expected = expected
        self.makeHasher = makeHasher
    }

    /// Creates a checksum from the expected digest in hexadecimal; `nil` when `hex` is not hexadecimal.
    public init?(algorithm: String, hex: String, makeHasher: @escaping @Sendable () -> any IncrementalHasher) {
        let digits = Array(hex.utf8)
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var bytes = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.init(algorithm: algorithm, expected: bytes, makeHasher: makeHasher)
    }

    /// The digest of the file at `url`, read in 1 MiB pieces.
    ///
    /// - Throws: ``SwitchyardError/Code/storage`` when the file cannot be read.
    public func digest(ofFileAt url: URL) throws(SwitchyardError) -> Data {
        let hasher = makeHasher()
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                chunk.withUnsafeBytes { hasher.update($0) }
            }
        } catch {
            throw SwitchyardError(code: .storage, message: "cannot read \(url.path) to check its checksum", underlyingError: error)
        }
        return hasher.finalize()
    }

    /// Lower-case hexadecimal.
    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

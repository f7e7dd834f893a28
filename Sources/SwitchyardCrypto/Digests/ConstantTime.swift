import COpenSSL
public import Foundation

/// Comparison whose running time does not depend on where two byte strings differ.
///
/// Use it for MACs, tags and any other secret-dependent comparison:
///
/// ```swift
/// guard ConstantTime.equals(receivedSignature, expectedSignature) else { throw … }
/// ```
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes, compared with `CRYPTO_memcmp`.
    ///
    /// Inputs of different lengths are unequal; the answer then depends only on the lengths, never on
    /// the content.
    public static func equals(_ a: some ContiguousBytes, _ b: some ContiguousBytes) -> Bool {
        a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in equals(left, right) }
        }
    }

    /// Whether two buffers hold the same bytes, compared with `CRYPTO_memcmp`.
    static func equals(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress, left.count > 0 else {
            return true
        }
        return CRYPTO_memcmp(leftBase, rightBase, left.count) == 0
    }
}

import Foundation
import HTTPTypes

/// Removes `null` object members (and optionally `null` array elements) from JSON response bodies
/// with a ``JSONSanitizer``, so that decoding sees absent keys instead of explicit nulls.
///
/// A body is treated as JSON when its `Content-Type` is `application/json` or ends in `+json`
/// (parameters such as `; charset=utf-8` are ignored), or — when the response has no `Content-Type` —
/// when its first non-whitespace byte is `{` or `[`. Every other body, and an empty body, passes
/// unchanged. A JSON body that is malformed or nests too deeply fails the call with the code
/// ``SwitchyardError/Code/invalidJSON``; the pipeline names this stage (`NullStripping`) in the error,
/// which also carries the response's status and body.
///
/// Register it **before** (outside) any decryption stage: stages run in reverse registration order
/// on the way out, so a stage registered ahead of the decryption stage sees the plaintext body. A
/// stage registered behind it would see ciphertext, which is not JSON.
///
/// ```swift
/// Service(.users, baseURL: "https://api.example.com", stages: [
///     EnvelopeStage(successCodes: [0]),
///     NullStrippingStage(),
///     decryption,
/// ], transport: transport)
/// ```
///
/// The sanitizer's output is compact: insignificant whitespace is dropped along with the `null`s.
public struct NullStrippingStage: SynchronousResponseStage {
    /// The sanitizer applied to JSON bodies.
    public let sanitizer: JSONSanitizer

    /// ``StageID/nullStripping``.
    public var id: StageID { .nullStripping }

    /// Creates the stage.
    ///
    /// - Parameter sanitizer: the sanitizer to apply; by default it removes `null` object members
    ///   and keeps `null` array elements, with a nesting limit of 512.
    public init(sanitizer: JSONSanitizer = JSONSanitizer()) {
        self.sanitizer = sanitizer
    }

    /// Strips the `null`s from a JSON body; leaves other bodies alone.
    public func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        try processSynchronously(&response, for: request, context: context)
    }

    /// What ``process(_:for:context:)`` does, without waiting: the pipeline calls it as a plain function.
    package func processSynchronously(_ response: inout Response, for request: Request, context: CallContext) throws {
        // A streamed JSON body would have to be read whole: the call must skip the stage.
        if case .stream = response.body, response.headerFields[.contentType].map({ MediaType.isJSON(MediaType.of($0)) }) == true {
            _ = try response.bodyBytes(for: id)
        }
        guard case .bytes(let body) = response.body, Self.isJSON(response) else { return }
        do throws(SwitchyardError) {
            response.body = .bytes(try sanitizer.stripNulls(body))
        } catch {
            throw error.carrying(response)
        }
    }

    /// Whether `response` carries a non-empty JSON body, by its content type or, without one, by its
    /// first non-whitespace byte.
    static func isJSON(_ response: Response) -> Bool {
        guard let body = response.body.bytes, !body.isEmpty else { return false }
        // One scan of the fields, no joined string; `application/json` as servers write it needs no parsing.
        if let contentType = response.headerFields.value(.contentType) {
            return isPlainJSONType(contentType) || MediaType.isJSON(MediaType.of(contentType))
        }
        let first = body.first { byte in byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// Whether a `Content-Type` value is `application/json` written plainly — lower-case, with its
    /// parameters (if any) right after it (`application/json; charset=utf-8`); `false` sends every
    /// other spelling to ``MediaType``.
    private static func isPlainJSONType(_ value: String) -> Bool {
        let type: StaticString = "application/json"
        let length = type.utf8CodeUnitCount
        let plain = value.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress, bytes.count >= length, memcmp(base, type.utf8Start, length) == 0 else { return false }
            return bytes.count == length || bytes[length] == UInt8(ascii: ";")
        }
        return plain ?? false
    }
}

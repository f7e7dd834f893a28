public import Foundation

/// Removes `null` members from JSON documents — at every depth, and optionally `null` array
/// elements — in one strict, byte-level pass without building a document tree.
///
/// ```swift
/// let sanitizer = JSONSanitizer()
/// let body = try sanitizer.stripNulls(Data(#"{"id":7,"avatar":null,"tags":["a",null]}"#.utf8))
/// // {"id":7,"tags":["a",null]}
/// let strict = JSONSanitizer(removeNullArrayElements: true)
/// // {"id":7,"tags":["a"]}
/// ```
///
/// ## What is kept
///
/// Everything but the dropped `null`s is copied byte for byte: numbers exactly as written (`1.50`,
/// `-0.0`, `1E+2`), strings with their escapes as written (`\u00e9` stays six bytes), non-ASCII text,
/// member order and duplicate names. Dropping a member also drops the comma that separated it, so
/// `{"a":null,"b":1}` becomes `{"b":1}` and `{"a":1,"b":null}` becomes `{"a":1}`. An object whose
/// members are all `null` becomes `{}`; a top-level `null` stays `null`.
///
/// Insignificant whitespace — between tokens and around the document — is **dropped**: the output is
/// compact JSON. Whitespace inside strings is part of the string and is kept.
///
/// ## What is rejected
///
/// The input is validated as it is read, as strictly as RFC 8259 asks: exactly one value, UTF-8
/// only (no byte order mark, no overlong forms or encoded surrogates), no trailing commas, no leading
/// zeros, no raw control characters in strings, only the standard escapes (and `\u` with four
/// hexadecimal digits), whitespace limited to space, tab, CR and LF, nothing after the value.
/// Malformed input throws a ``SwitchyardError`` with the code ``SwitchyardError/Code/invalidJSON``
/// and a message naming the problem and its zero-based byte offset, for example
/// `invalid JSON: unexpected character 'x' at byte 17, expected a value`.
///
/// ## Duplicate member names
///
/// Stripping must not change what a payload means. A name that appears more than once in one object
/// is read differently by different decoders (Foundation's `JSONDecoder` reads the first,
/// `JSONSerialization` the last), and when one of its values is `null`, removing it changes what
/// any of them reads: `{"nickname":null,"nickname":"new"}` decodes as `nil` before and `"new"` after.
/// So by default (``DuplicateNames/refuse``) such a document is refused with
/// ``SwitchyardError/Code/ambiguousJSON``, naming the member and its byte offset; duplicates
/// without a `null` among them are copied as they are. ``DuplicateNames/ignore`` strips them anyway.
///
/// Objects and arrays nested deeper than ``maximumDepth`` are rejected too. The pass keeps an
/// explicit stack of one bit per level and never recurses, so hostile input cannot overflow the
/// call stack whatever the limit.
///
/// Use it through ``NullStrippingStage`` in a pipeline, or on its own.
public struct JSONSanitizer: Sendable, Hashable {
    /// Whether `null` elements of arrays are dropped too (`[null,1,null]` → `[1]`); `false` by default,
    /// because array positions often carry meaning.
    public var removeNullArrayElements: Bool
    /// The deepest nesting of objects and arrays accepted; deeper input is rejected. 512 by default.
    public var maximumDepth: Int
    /// What to do with an object that names a member more than once with a `null` among its values.
    public var duplicateNames: DuplicateNames

    /// What a sanitizer does with an object that names a member more than once, with a `null` among
    /// the values — the one case where stripping `null`s changes what a decoder reads.
    public enum DuplicateNames: Sendable, Hashable {
        /// Refuse the document with ``SwitchyardError/Code/ambiguousJSON`` (the default).
        case refuse
        /// Strip the `null`s anyway; what a decoder reads may change.
        case ignore
    }

    /// Creates a sanitizer.
    ///
    /// - Parameters:
    ///   - removeNullArrayElements: whether `null` array elements are dropped as well as `null`
    ///     object members.
    ///   - maximumDepth: the deepest nesting of objects and arrays accepted (a document that is a
    ///     single array has depth 1; a scalar has depth 0).
    ///   - duplicateNames: what to do with a name repeated in one object with a `null` among its
    ///     values; refused by default.
    public init(removeNullArrayElements: Bool = false, maximumDepth: Int = 512, duplicateNames: DuplicateNames = .refuse) {
        self.removeNullArrayElements = removeNullArrayElements
        self.maximumDepth = maximumDepth
        self.duplicateNames = duplicateNames
    }

    /// Validates `json` and returns it without its `null` object members (and, when
    /// ``removeNullArrayElements`` is set, without its `null` array elements), compact.
    ///
    /// - Parameter json: a UTF-8 JSON document.
    /// - Returns: the document with the `null`s and the insignificant whitespace removed. When
    ///   nothing had to be removed, the input itself is returned.
    /// - Throws: ``SwitchyardError`` with the code ``SwitchyardError/Code/invalidJSON`` when `json`
    ///   is not a well-formed JSON document or nests deeper than ``maximumDepth``; the message gives
    ///   the byte offset.
    public func stripNulls(_ json: Data) throws(SwitchyardError) -> Data {
        let count = json.count
        guard count > 0 else { throw Self.error(.unexpectedEnd(at: 0, expected: .value)) }
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        let removeNullArrayElements = removeNullArrayElements
        let maximumDepth = maximumDepth
        let refusesAmbiguity = duplicateNames == .refuse
        // The names of the first few dropped members, by which most documents are cleared of
        // ambiguity without the full look (``JSONDuplicateNames/clearsDropped(_:count:input:output:)``).
        let outcome: Result<(written: Int, mayBeAmbiguous: Bool), JSONSanitizerFailure> = withUnsafeTemporaryAllocation(
            of: Int.self,
            capacity: JSONDuplicateNames.droppedNamesChecked
        ) { droppedNames in
            json.withUnsafeBytes { raw in
                guard let input = raw.bindMemory(to: UInt8.self).baseAddress else {
                    return .failure(.unexpectedEnd(at: 0, expected: .value))
                }
                let pass = JSONSanitizerPass(input: input, count: raw.count, output: output, droppedNames: droppedNames)
                do throws(JSONSanitizerFailure) {
                    let (written, dropped) = try pass.run(removeNullArrayElements: removeNullArrayElements, maximumDepth: maximumDepth)
                    let mayBeAmbiguous =
                        refusesAmbiguity && dropped > 0
                        && !JSONDuplicateNames.clearsDropped(
                            UnsafeBufferPointer(droppedNames),
                            count: dropped,
                            input: UnsafeBufferPointer(start: input, count: raw.count),
                            output: UnsafeBufferPointer(start: output, count: written)
                        )
                    return .success((written, mayBeAmbiguous))
                } catch {
                    return .failure(error)
                }
            }
        }
        switch outcome {
        case .success(let result) where result.written == count:
            // Nothing was dropped, not even whitespace: the output is the input.
            output.deallocate()
            return json
        case .success(let result):
            if result.mayBeAmbiguous, let ambiguous = JSONDuplicateNames.firstAmbiguous(in: [UInt8](json)) {
                output.deallocate()
                throw SwitchyardError(
                    code: .ambiguousJSON,
                    message: "ambiguous JSON: the member '\(ambiguous.name)' appears more than once in one object at byte "
                        + "\(ambiguous.offset), with a null among its values; removing the null would change what a decoder reads"
                )
            }
            return Data(bytesNoCopy: output, count: result.written, deallocator: .custom { pointer, _ in pointer.deallocate() })
        case .failure(let failure):
            output.deallocate()
            throw Self.error(failure)
        }
    }

    /// Checks that `json` is one well-formed JSON document nested no deeper than ``maximumDepth`` —
    /// what ``stripNulls(_:)`` refuses as ``SwitchyardError/Code/invalidJSON`` — without returning a
    /// copy or looking for ambiguous names: for readers that cut members out of the bytes as sent.
    /// The pass still writes as it reads, into scratch space as large as the body (on the stack when
    /// it is small), which is dropped.
    ///
    /// - Throws: ``SwitchyardError`` with the code ``SwitchyardError/Code/invalidJSON``.
    func validate(_ json: Data) throws(SwitchyardError) {
        let count = json.count
        guard count > 0 else { throw Self.error(.unexpectedEnd(at: 0, expected: .value)) }
        let maximumDepth = maximumDepth
        let failure: JSONSanitizerFailure? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { output in
            json.withUnsafeBytes { raw -> JSONSanitizerFailure? in
                guard let input = raw.bindMemory(to: UInt8.self).baseAddress, let output = output.baseAddress else {
                    return .unexpectedEnd(at: 0, expected: .value)
                }
                do throws(JSONSanitizerFailure) {
                    _ = try JSONSanitizerPass(input: input, count: raw.count, output: output)
                        .run(removeNullArrayElements: false, maximumDepth: maximumDepth)
                    return nil
                } catch {
                    return error
                }
            }
        }
        if let failure { throw Self.error(failure) }
    }

    private static func error(_ failure: JSONSanitizerFailure) -> SwitchyardError {
        SwitchyardError(code: .invalidJSON, message: "invalid JSON: \(failure.message)")
    }
}

extension SwitchyardError.Code {
    /// A JSON object names a member more than once with a `null` among its values, so removing
    /// `null`s would change what a decoder reads (see ``JSONSanitizer``).
    public static let ambiguousJSON = SwitchyardError.Code("ambiguousJSON")

    /// A body that should be JSON is not well-formed JSON, or nests deeper than allowed (see
    /// ``JSONSanitizer``).
    public static let invalidJSON = SwitchyardError.Code("invalidJSON")
}

import Foundation
import Switchyard
import Testing

/// A stream of byte chunks given up front, ending with `failure` when one is set.
struct ChunkFeed: AsyncSequence, Sendable {
    typealias Element = Data
    let pieces: [Data]
    var failure: (any Error & Sendable)?

    init(_ pieces: [Data], failure: (any Error & Sendable)? = nil) {
        self.pieces = pieces
        self.failure = failure
    }

    /// `text`'s UTF-8 bytes, cut before each offset in `cuts`.
    init(_ text: String, cuts: [Int] = []) {
        self.init(Array(text.utf8), cuts: cuts)
    }

    /// `bytes`, cut before each offset in `cuts`.
    init(_ bytes: [UInt8], cuts: [Int]) {
        var pieces: [Data] = []
        var start = 0
        for cut in cuts.sorted() where cut > start && cut < bytes.count {
            pieces.append(Data(bytes[start..<cut]))
            start = cut
        }
        pieces.append(Data(bytes[start...]))
        self.init(pieces)
    }

    func makeAsyncIterator() -> Iterator { Iterator(pieces: pieces[...], failure: failure) }

    struct Iterator: AsyncIteratorProtocol {
        var pieces: ArraySlice<Data>
        var failure: (any Error & Sendable)?

        mutating func next() async throws -> Data? {
            if let piece = pieces.popFirst() { return piece }
            if let failure {
                self.failure = nil
                throw failure
            }
            return nil
        }
    }
}

/// What a decoded stream gave: its values, then the code of the error that ended it, if any.
struct StreamOutcome<Value: Equatable>: Equatable {
    var values: [Value] = []
    var error: SwitchyardError.Code?
    var message: String?

    static func == (lhs: StreamOutcome, rhs: StreamOutcome) -> Bool { lhs.values == rhs.values && lhs.error == rhs.error }
}

/// Reads `stream` to its end.
func readAll<S: AsyncSequence>(_ stream: S) async -> StreamOutcome<S.Element> where S.Element: Equatable, S.Failure == SwitchyardError {
    var result = StreamOutcome<S.Element>()
    do {
        for try await value in stream { result.values.append(value) }
    } catch {
        result.error = error.code
        result.message = error.message
    }
    return result
}

/// A seeded generator (SplitMix64), so that a failing run can be replayed; the target's one.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

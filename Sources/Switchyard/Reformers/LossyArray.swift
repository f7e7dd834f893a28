/// A JSON array decoded element by element: elements that fail to decode are dropped and reported,
/// instead of failing the whole call (the seeds' `safeMap`).
///
/// Use it as an endpoint's output, inside another model, or through ``LossyListReformer``:
///
/// ```swift
/// struct ListArticles: Endpoint {
///     typealias Output = LossyArray<Article>
///     var service: ServiceID { .catalog }
///     var method: HTTPRequest.Method { .get }
///     var path: String { "/articles" }
/// }
/// let list = try await client.send(ListArticles()).value
/// print(list.elements.count, "shown,", list.dropped.count, "dropped")   // dropped[0].reason says why
/// ```
///
/// The whole value must still be an array: anything else fails as a normal decoding error.
public struct LossyArray<Element: Decodable & Sendable>: Decodable, Sendable {
    /// One element that did not decode.
    public struct Drop: Sendable, Hashable, CustomStringConvertible {
        /// Its position in the array as sent.
        public let index: Int
        /// Why it did not decode, in a sentence (the failing key or type), without the element's bytes.
        public let reason: String

        /// `#index: reason`.
        public var description: String { "#\(index): \(reason)" }
    }

    /// The elements that decoded, in order.
    public var elements: [Element]
    /// The elements that did not, in order.
    public var dropped: [Drop]

    /// Creates a value from decoded elements and drops.
    public init(elements: [Element], dropped: [Drop] = []) {
        self.elements = elements
        self.dropped = dropped
    }

    /// Decodes each element on its own; a failing one is skipped and recorded.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        var dropped: [Drop] = []
        while !container.isAtEnd {
            let index = container.currentIndex
            do {
                elements.append(try container.decode(Element.self))
            } catch {
                dropped.append(Drop(index: index, reason: Self.reason(error)))
                // Step over the element that failed, whatever its shape.
                _ = try? container.decode(Skipped.self)
                guard container.currentIndex > index else { throw error }
            }
        }
        self.elements = elements
        self.dropped = dropped
    }

    /// Decodes anything, keeping nothing: moves the container past an element.
    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.dropFirst().map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the element" : keys.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context)) has no '\(key.stringValue)'"
        case .typeMismatch(let type, let context): return "\(path(context)) is not \(type)"
        case .valueNotFound(let type, let context): return "\(path(context)) is null where \(type) was expected"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

extension LossyArray: Equatable where Element: Equatable {}

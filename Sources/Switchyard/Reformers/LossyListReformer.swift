public import Foundation

/// Decodes a JSON array element by element into a ``LossyArray``: elements that fail are dropped and
/// reported in ``LossyArray/dropped`` instead of failing the call.
///
/// ```swift
/// let list = try await client.send(ListArticles().reformed(by: LossyListReformer<Article>())).value
/// if !list.dropped.isEmpty { logger.warning("dropped \(list.dropped.count) articles: \(list.dropped)") }
/// ```
public struct LossyListReformer<Element: Decodable & Sendable>: Reformer, @unchecked Sendable {
    /// The decoder to use instead of the service's, if any (never mutated, only decoded with).
    public let decoder: JSONDecoder?

    /// Creates the reformer.
    public init(_ type: Element.Type = Element.self, decoder: JSONDecoder? = nil) {
        self.decoder = decoder
    }

    /// Decodes the body's array element by element.
    public func reform(_ response: Response, context: ReformContext) throws -> LossyArray<Element> {
        try (decoder ?? context.decoder).decode(LossyArray<Element>.self, from: response.bytes)
    }
}

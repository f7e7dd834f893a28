public import Foundation

/// Decodes the response body as JSON into `Output`, with the service's decoder or one of its own
/// (a different date or key strategy for one call).
public struct DecodableReformer<Output: Decodable & Sendable>: Reformer, @unchecked Sendable {
    /// The decoder to use instead of the service's, if any. (`JSONDecoder` is not marked `Sendable`;
    /// this reformer never mutates it, only decodes with it.)
    public let decoder: JSONDecoder?

    /// Creates the reformer.
    public init(_ type: Output.Type = Output.self, decoder: JSONDecoder? = nil) {
        self.decoder = decoder
    }

    /// Decodes the body.
    public func reform(_ response: Response, context: ReformContext) throws -> Output {
        try (decoder ?? context.decoder).decode(Output.self, from: response.bytes)
    }
}

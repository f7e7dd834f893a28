import Foundation

extension EnvelopeStage {
    /// The stage, keeping the members beside the code, message and payload — `total`, `hasMore`,
    /// `sign`, a server time — typed, in the response's metadata under `key`, where the call's result
    /// offers them (``CallResult/metadata``) and a `Paginator`'s fetch can read `hasMore`.
    ///
    /// The type is decoded from the envelope object with its payload left out (read as `null`), so it
    /// declares only the members it wants, at any depth (`{"page":{"total":…}}`); the service's
    /// ``Keys`` do not limit it. It is read for successful envelopes only.
    ///
    /// ```swift
    /// struct PageInfo: Decodable, ResponseMetadataKey {
    ///     typealias Value = PageInfo
    ///     var total: Int?
    ///     var hasMore: Bool?
    /// }
    /// EnvelopeStage(successCodes: [0]).decodingSiblings(as: PageInfo.self)
    /// // {"code":0,"msg":"ok","data":[…],"total":42,"hasMore":true}
    /// let result = try await client.send(ListArticles(page: 1))
    /// result.metadata[PageInfo.self]?.hasMore   // true
    /// ```
    ///
    /// - A sibling that is absent or `null` is not a failure: declare members optional to read what
    ///   is there; a required member that is absent leaves the whole value `nil`
    ///   (`result.metadata[PageInfo.self] == nil`).
    /// - A sibling that is there but malformed — `"hasMore":"yes"` for a `Bool`, a date the type
    ///   refuses — fails the call with ``SwitchyardError/Code/decoding`` naming the member, the stage
    ///   ``StageID/envelope`` and the response: a paging decision is never taken from a value read
    ///   wrong.
    ///
    /// - Parameter key: the metadata key whose value the siblings decode to; often the decoded type
    ///   itself, as ``Outcome`` is.
    /// - Returns: the stage, reading siblings as `key`'s value.
    public func decodingSiblings<Key: ResponseMetadataKey>(as key: Key.Type) -> EnvelopeStage where Key.Value: Decodable {
        var stage = self
        stage.siblings = { (envelope, data, metadata) throws(SwitchyardError) in
            var object = envelope
            // The payload is the bulk of an envelope and never a sibling: it is not decoded again.
            if let data {
                let start = object.startIndex
                object.replaceSubrange((start + data.lowerBound)..<(start + data.upperBound), with: Data("null".utf8))
            }
            do {
                metadata[key] = try JSONDecoder().decode(Key.Value.self, from: object)
            } catch DecodingError.keyNotFound, DecodingError.valueNotFound {
                metadata[key] = nil
            } catch {
                var failure = SwitchyardError(
                    code: .decoding,
                    message: "the envelope's siblings: "
                        + DecodingFailureMessage.describe(error, output: Key.Value.self, body: object),
                    underlyingError: error
                )
                failure.stage = .envelope
                throw failure
            }
        }
        return stage
    }
}

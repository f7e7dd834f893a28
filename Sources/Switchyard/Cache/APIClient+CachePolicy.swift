extension APIClient {
    /// The cache policy a call of `endpoint` with `options` runs under — the call's, else the
    /// endpoint's, else the default of the ``CacheStage`` it meets — or `nil` when it meets none
    /// (the service has no cache stage, or the call skips it).
    package func cachePolicy<E: Endpoint>(of endpoint: E, options: CallOptions?) -> CachePolicy? {
        let merged = options.map { endpoint.options.applying($0) } ?? endpoint.options
        guard !merged.skippedStages.contains(.cache) else { return nil }
        if let chosen = merged.cachePolicy { return chosen }
        if let stage = merged.additionalStages.lazy.compactMap({ $0 as? CacheStage }).first { return stage.defaultPolicy }
        let service = try? registry.resolve(endpoint.service).entry.pipeline
        return service?.sessionBoundStages.lazy.compactMap { $0 as? CacheStage }.first?.defaultPolicy
    }
}

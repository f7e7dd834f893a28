extension Response {
    /// `true` when a signing or encryption stage let this response through without verifying or
    /// opening it: a non-2xx answer that was not signed or not sealed (a gateway's 503 page, a 401
    /// from an auth proxy). Treat its body as coming from anyone on the path: ``EnvelopeStage``
    /// never reads a business failure from it.
    public var isUnverified: Bool {
        get { metadata[Unverified.self] ?? false }
        set { metadata[Unverified.self] = newValue ? true : nil }
    }
}

/// The mark a signing or encryption stage leaves on a response it let through unverified.
private enum Unverified: ResponseMetadataKey {
    typealias Value = Bool
}

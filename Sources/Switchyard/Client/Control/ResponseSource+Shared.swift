extension ResponseSource {
    /// The response of an identical call in flight, shared under ``SameRequestPolicy/coalesce``.
    public static let shared = ResponseSource("shared")
}

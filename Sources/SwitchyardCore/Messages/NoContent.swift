/// The output of a call whose response body does not matter (`204 No Content`, `HEAD`, fire-and-forget).
public struct NoContent: Sendable, Hashable, Decodable {
    /// Creates the value.
    public init() {}
    /// Decodes from anything, ignoring it.
    public init(from decoder: any Decoder) throws {}
}

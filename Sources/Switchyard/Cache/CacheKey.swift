/// The identity of a cached response: the service and endpoint it belongs to (for invalidation)
/// and the canonical request — environment, method, authority, path, and the query's name–value
/// pairs sorted with volatile and credential parameters left out. Header fields (tokens, cookies)
/// never enter it, so a new token finds the same entries; a new environment does not.
public struct CacheKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The service.
    public let serviceID: String
    /// The endpoint's name.
    public let endpoint: String
    /// The canonical request text.
    public let identity: String

    /// Creates a key.
    public init(serviceID: String, endpoint: String, identity: String) {
        self.serviceID = serviceID.lowercased()
        self.endpoint = endpoint
        self.identity = identity
    }

    /// A stable 64-bit FNV-1a digest of the key, as 16 hex digits — the disk tier's file name.
    public var digest: String {
        let hash = FNV1a.hash((serviceID + "\n" + endpoint + "\n" + identity).utf8)
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `service endpoint: identity`.
    public var description: String { "\(serviceID) \(endpoint): \(identity.replacingOccurrences(of: "\n", with: " "))" }

    /// The key of `request` made for `context`.
    public static func of(_ request: Request, context: CallContext, excluding excluded: Set<String>) -> CacheKey {
        let identity = [
            context.environment.description, request.method.rawValue, request.head.authority ?? "", String(request.pathWithoutQuery),
            request.canonicalQuery(excluding: excluded),
        ].joined(separator: "\n")
        return CacheKey(serviceID: context.serviceID.rawValue, endpoint: context.endpointName, identity: identity)
    }
}

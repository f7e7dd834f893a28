/// The identity of a cached response: the service and endpoint it belongs to (for invalidation),
/// whose it is (the request's ``CredentialPartition``), and the canonical request — environment,
/// method, authority, path, and the query's name–value pairs sorted with volatile and credential
/// parameters left out (and, for a POST read, its body's digest). An entry is only ever found by a request of the same partition: another
/// user's token, cookie or account never finds it.
public struct CacheKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The service.
    public let serviceID: String
    /// The endpoint's name.
    public let endpoint: String
    /// The canonical request text.
    public let identity: String
    /// Whose response it is.
    public let partition: CredentialPartition

    /// Creates a key.
    public init(serviceID: String, endpoint: String, identity: String, partition: CredentialPartition) {
        self.serviceID = serviceID.lowercased()
        self.endpoint = endpoint
        self.identity = identity
        self.partition = partition
    }

    /// A stable 64-bit FNV-1a digest of the key, as 16 hex digits — the disk tier's file name.
    public var digest: String {
        let hash = FNV1a.hash((partition.rawValue + "\n" + serviceID + "\n" + endpoint + "\n" + identity).utf8)
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `service endpoint [partition]: identity`.
    public var description: String {
        "\(serviceID) \(endpoint) [\(partition)]: \(identity.replacingOccurrences(of: "\n", with: " "))"
    }

    /// The key of `request` made for `context`.
    public static func of(
        _ request: Request,
        context: CallContext,
        partition: CredentialPartition,
        excluding excluded: Set<String>
    ) -> CacheKey {
        var parts = [
            context.environment.description, request.method.rawValue, request.head.authority ?? "", String(request.pathWithoutQuery),
            request.canonicalQuery(excluding: excluded),
        ]
        // A POST read (``CallOptions/cacheReadsWithPOST()``) is told apart by its body.
        if request.method == .post, let body = request.body?.bytes {
            parts.append("body:\(body.count):\(String(FNV1a.hash(body), radix: 16))")
        }
        let identity = parts.joined(separator: "\n")
        return CacheKey(serviceID: context.serviceID.rawValue, endpoint: context.endpointName, identity: identity, partition: partition)
    }
}

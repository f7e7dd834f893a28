import SwitchyardSupport

/// The identity of a cached response: the service and endpoint it belongs to (for invalidation),
/// whose it is (the request's ``CredentialPartition``), and the canonical request — environment,
/// method, authority, path, and the query's name–value pairs sorted with volatile and credential
/// parameters left out (and, for a POST read, its body's digest; for a versioned service or endpoint,
/// the version). An entry is only ever found by a request of the same partition: another
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
    /// The identity and the partition hashed once, when the key is made: a hit looks its key up in
    /// more than one table, and each lookup would otherwise hash them again.
    private let precomputedHash: Int

    private enum CodingKeys: String, CodingKey {
        case serviceID, endpoint, identity, partition
    }

    /// Creates a key.
    public init(serviceID: String, endpoint: String, identity: String, partition: CredentialPartition) {
        self.init(canonicalServiceID: serviceID.lowercased(), endpoint: endpoint, identity: identity, partition: partition)
    }

    private init(canonicalServiceID serviceID: String, endpoint: String, identity: String, partition: CredentialPartition) {
        self.serviceID = serviceID
        self.endpoint = endpoint
        self.identity = identity
        self.partition = partition
        // The identity (environment, method, authority, path, query…) and the partition tell keys
        // apart well enough for a table; equality still compares all four parts.
        var hasher = Hasher()
        hasher.combine(identity)
        hasher.combine(partition)
        self.precomputedHash = hasher.finalize()
    }

    /// Reads a key as ``encode(to:)`` wrote it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            serviceID: try container.decode(String.self, forKey: .serviceID),
            endpoint: try container.decode(String.self, forKey: .endpoint),
            identity: try container.decode(String.self, forKey: .identity),
            partition: try container.decode(CredentialPartition.self, forKey: .partition)
        )
    }

    /// Writes the key's four parts.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(serviceID, forKey: .serviceID)
        try container.encode(endpoint, forKey: .endpoint)
        try container.encode(identity, forKey: .identity)
        try container.encode(partition, forKey: .partition)
    }

    /// Whether two keys name the same response: all four parts equal.
    public static func == (lhs: CacheKey, rhs: CacheKey) -> Bool {
        lhs.precomputedHash == rhs.precomputedHash && lhs.identity == rhs.identity && lhs.endpoint == rhs.endpoint
            && lhs.serviceID == rhs.serviceID && lhs.partition == rhs.partition
    }

    /// Feeds the hash computed when the key was made.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(precomputedHash)
    }

    /// A stable 64-bit FNV-1a digest of the key, as 16 hex digits — the disk tier's file name. A
    /// private key's partition is itself a keyed digest, so its file name reveals no account.
    var digest: String {
        let hash = FNV1a.hash((partition.rawValue + "\n" + serviceID + "\n" + endpoint + "\n" + identity).utf8)
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `service endpoint [partition]: identity`.
    public var description: String {
        "\(serviceID) \(endpoint) [\(partition)]: \(identity.replacingOccurrences(of: "\n", with: " "))"
    }

    /// The key of `request` made for `context`, under `version` of the app's model when one is given
    /// (a key of another version, or of none, is another key).
    public static func of(
        _ request: Request,
        context: CallContext,
        partition: CredentialPartition,
        excluding excluded: Set<String>,
        version: String? = nil
    ) -> CacheKey {
        var environment = context.environment.description
        var method = request.method.rawValue
        var authority = request.head.authority ?? ""
        // The target split once; the path a substring, so that it is not copied out of the target first.
        let target = request.targetParts
        var path = target.path
        var query = Request.canonicalQuery(target.query, excluding: excluded)
        var tail = ""
        // A POST read (``CallOptions/cacheReadsWithPOST()``) is told apart by its body.
        if request.method == .post, let body = request.body?.bytes {
            tail += "\nbody:\(body.count):\(String(FNV1a.hash(body), radix: 16))"
        }
        if let version { tail += "\nversion:\(version)" }
        // The lines joined by newlines, written straight into a string of the final size (`withUTF8`
        // is why the parts are variables): no array of parts and no intermediate strings on a hit.
        let count =
            environment.utf8.count + method.utf8.count + authority.utf8.count + path.utf8.count + query.utf8.count
            + tail.utf8.count + 4
        let identity = String(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            func put(_ bytes: UnsafeBufferPointer<UInt8>) { offset = buffer[offset...].initialize(fromContentsOf: bytes) }
            func newline() {
                buffer[offset] = UInt8(ascii: "\n")
                offset += 1
            }
            environment.withUTF8(put)
            newline()
            method.withUTF8(put)
            newline()
            authority.withUTF8(put)
            newline()
            path.withUTF8(put)
            newline()
            query.withUTF8(put)
            tail.withUTF8(put)
            return offset
        }
        return CacheKey(
            canonicalServiceID: context.serviceID.canonicalName,
            endpoint: context.endpointName,
            identity: identity,
            partition: partition
        )
    }
}

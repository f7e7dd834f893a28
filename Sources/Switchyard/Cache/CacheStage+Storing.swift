import Foundation
import HTTPTypes

extension CacheStage {
    /// Asks the network — conditionally when `stored` has validators — and stores what may be stored.
    /// A `304` to a conditional request refreshes the stored entry and answers with it. Nothing is
    /// stored when the request reached the transport with a credential `prediction` does not cover.
    func fetch(
        _ request: Request,
        context: CallContext,
        key: CacheKey,
        prediction: CredentialPrediction,
        revalidating stored: CachedResponse?,
        next: NextStage
    ) async throws -> Response {
        var outgoing = request
        if let stored {
            if let etag = stored.etag { outgoing.headerFields[.ifNoneMatch] = etag }
            if let modified = stored.lastModified { outgoing.headerFields[.ifModifiedSince] = modified }
        }
        let version = cache.version(of: key)
        let requestedAt = now()
        if prediction.checksSent { context.control.watchSentRequests() }
        let response = try await next(outgoing, context)
        let receivedAt = now()
        // A stage inside this one added a credential the key's partition does not account for: the
        // answer is that credential's owner's, so it is neither stored nor used to refresh an entry.
        guard prediction.covers(context.control.sentRequests) else {
            if response.status.code == 304, let stored { return stored.response(source: .revalidated) }
            return response
        }
        if response.status.code == 304, var entry = stored {
            entry.headerFields = Self.updated(entry.headerFields, with: response.headerFields)
            entry.requestedAt = requestedAt
            entry.storedAt = receivedAt
            if !CacheControl(request.headerFields).noStore, !entry.directives.control.noStore {
                cache.store(entry, ifUnchangedSince: version)
            }
            return entry.response(source: .revalidated)
        }
        cache.note(key.partition, accounts: prediction.sourceAccounts)
        store(response, for: request, key: key, requestedAt: requestedAt, receivedAt: receivedAt, ifUnchangedSince: version)
        return response
    }

    /// Stores a final 2xx response (not `206`) unless either side said `no-store`, the key was written
    /// or invalidated while it was fetched, or the answer came from another origin (an allowed
    /// cross-origin redirect): that origin's answer is never kept as the service's.
    private func store(
        _ response: Response,
        for request: Request,
        key: CacheKey,
        requestedAt: Date,
        receivedAt: Date,
        ifUnchangedSince version: ResponseCache.Version
    ) {
        guard (200...299).contains(response.status.code), response.status.code != 206, case .bytes(let body) = response.body,
            !Self.forbidsStoring(response), !CacheControl(request.headerFields).noStore
        else {
            return
        }
        if let landed = response.url, !Self.sameOrigin(landed, request) { return }
        let entry = CachedResponse(
            key: key,
            status: response.status.code,
            headerFields: response.headerFields,
            body: body,
            storedAt: receivedAt,
            requestedAt: requestedAt,
            varyingFields: CachedResponse.varyingFields(of: request.headerFields, response: response.headerFields)
        )
        cache.store(entry, ifUnchangedSince: version)
    }

    /// The stored fields updated by a `304`'s (RFC 9111 §3.2): each field the `304` carries replaces
    /// the stored one, except those that describe the stored body.
    static func updated(_ stored: HTTPFields, with fresh: HTTPFields) -> HTTPFields {
        let kept: Set<HTTPField.Name> = [.contentLength, .contentEncoding, .contentType, .contentRange, .transferEncoding]
        var fields = stored
        for name in Set(fresh.map(\.name)) where !kept.contains(name) {
            fields[values: name] = fresh[values: name]
        }
        return fields
    }

    /// Whether `url` has the scheme, host and port `request` was sent to.
    static func sameOrigin(_ url: URL, _ request: Request) -> Bool {
        guard let origin = request.url else { return false }
        return url.scheme?.lowercased() == origin.scheme?.lowercased() && url.host?.lowercased() == origin.host?.lowercased()
            && url.port == origin.port
    }

    /// Whether the response forbids storing it: `Cache-Control: no-store`.
    static func forbidsStoring(_ response: Response) -> Bool {
        CacheControl(response.headerFields).noStore
    }
}

extension CallOptions {
    /// Uses `policy` for this call (see ``CacheStage``) — in an endpoint's options, for each of its
    /// calls — and, when `version` is given, keys its entries by that version of the app's model of
    /// the response: bump it when the model changes and nothing stored under another version (or
    /// none) is served again. The ``CacheStage/version`` of the service adds to it.
    ///
    /// ```swift
    /// options.cache(.cacheElseNetwork(maxAge: .seconds(300)), version: "3")
    /// ```
    public mutating func cache(_ policy: CachePolicy, version: String? = nil) {
        self[option: CacheStage.CallPolicy.self] = policy
        if let version { self[option: CacheStage.Version.self] = version }
    }

    /// When this call (a write) succeeds, removes the cached entries of these services — of one
    /// endpoint each when it is named.
    public mutating func invalidateCache(onSuccess targets: [(service: ServiceID, endpoint: String?)]) {
        self[option: CacheStage.Invalidation.self] = targets
    }

    /// Lets the ``CacheStage`` cache this POST as a read — for legacy APIs that read with POST. The
    /// body (in memory) becomes part of the key; a streamed body is never cached.
    public mutating func cacheReadsWithPOST() {
        self[option: CacheStage.PostReads.self] = true
    }
}

import NIOCore
import SwitchyardCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `/shop-api`: the module behind the full-pipeline demo, tests and benchmark. Every order request
/// must be signed (HMAC-SHA256, ``SampleBackend/shopSigningKey``) and carry the current bearer
/// token; bodies both ways are AES-256-GCM sealed with ``SampleBackend/shopKey``, and responses are
/// signed. Answers are `{code, msg, data}` envelopes with `code` 0 for success and plenty of nulls.
///
/// - `POST /shop-api/token` — plain JSON `{"refresh_token": …}`; issues a new access token.
/// - `POST /shop-api/orders` — creates an order; `data.received` echoes the decrypted body and
///   `data.query` the query parameters.
/// - `GET /shop-api/orders/{id}` — reads an order; `data.query` echoes the query parameters.
///
/// An expired token gets a sealed 401 envelope; with `X-Token-Expiry: business` it gets a 200 whose
/// envelope carries code 4011 instead (a backend that reports expiry as a business code).
enum ShopModule {
    static let scheme = EncryptionScheme.aes256GCM
    static let encryptionKey = SymmetricKey(SampleBackend.shopKey)
    static let signingKey = SymmetricKey(SampleBackend.shopSigningKey)

    static func route(_ request: LoopbackRequest, segments: ArraySlice<Substring>, state: SampleState) -> LoopbackResponse? {
        let segments = Array(segments)
        if segments == ["token"], request.method == .POST { return refresh(request, state: state) }
        guard segments.first == "orders" else { return nil }
        guard let nonce = verifiedNonce(request) else {
            return .envelope(code: 400, msg: "the request signature is missing or wrong", status: .badRequest)
        }
        let token = state.shopTokens.withLock { $0.current }
        guard request.head.headers.first(name: "authorization") == "Bearer \(token)" else {
            if request.head.headers.first(name: "x-token-expiry") == "business" {
                return sealed(.envelope(code: 4011, msg: "token expired"), for: request, nonce: nonce)
            }
            return sealed(.envelope(code: 401, msg: "token expired", status: .unauthorized), for: request, nonce: nonce)
        }
        let query = JSONValue.object(queryPairs(request))
        if segments.count == 1, request.method == .POST {
            guard let body = opened(request), (try? JSONDecoder().decode(AnyObject.self, from: Data(body))) != nil else {
                return sealed(
                    .envelope(code: 400, msg: "the order must be a sealed JSON object", status: .badRequest),
                    for: request,
                    nonce: nonce
                )
            }
            let order: JSONValue = .object([
                ("id", 42), ("status", "created"), ("coupon", .null), ("note", .null), ("received", .raw(body)), ("query", query),
            ])
            return sealed(.envelope(code: 0, msg: "ok", data: order, status: .created), for: request, nonce: nonce)
        }
        if segments.count == 2, request.isRead, let id = Int(segments[1]) {
            let order: JSONValue = .object([
                ("id", .int(id)), ("status", "shipped"), ("coupon", .null), ("tracking", .null),
                ("lines", .array([.object([("sku", "A-1"), ("gift", .null)]), .null])), ("query", query),
            ])
            return sealed(.envelope(code: 0, msg: "ok", data: order), for: request, nonce: nonce)
        }
        return nil
    }

    /// Any JSON object (decoding validates the whole document and insists on an object at the top).
    private struct AnyObject: Decodable {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            _ = try decoder.container(keyedBy: Key.self)
        }
    }

    private static func refresh(_ request: LoopbackRequest, state: SampleState) -> LoopbackResponse {
        struct RefreshRequest: Decodable { let refresh_token: String }
        guard let body = try? JSONDecoder().decode(RefreshRequest.self, from: Data(request.body.readableBytesView)),
            body.refresh_token == SampleBackend.shopRefreshToken
        else {
            return .envelope(code: 403, msg: "unknown refresh token", status: .forbidden)
        }
        let issued: String? = state.shopTokens.withLock { tokens in
            if tokens.refusals > 0 {
                tokens.refusals -= 1
                return nil
            }
            tokens.refreshes += 1
            tokens.current = "shop-token-\(tokens.refreshes + 1)"
            return tokens.current
        }
        guard let issued else { return .envelope(code: 503, msg: "the token service is unavailable", status: .serviceUnavailable) }
        return .envelope(code: 0, msg: "ok", data: .object([("token", .string(issued)), ("expires_in", 3600)]))
    }

    /// The request's nonce if its signature is valid.
    private static func verifiedNonce(_ request: LoopbackRequest) -> String? {
        let headers = request.head.headers
        guard let keyID = headers.first(name: SigningWireFormat.keyIDHeader.rawName), keyID == SampleBackend.shopKeyID,
            let timestampText = headers.first(name: SigningWireFormat.timestampHeader.rawName), let timestamp = Int64(timestampText),
            let nonce = headers.first(name: SigningWireFormat.nonceHeader.rawName),
            let signature = headers.first(name: SigningWireFormat.signatureHeader.rawName)
        else { return nil }
        let canonical = SigningWireFormat.canonicalRequest(
            method: request.method.rawValue,
            target: request.uri,
            timestamp: timestamp,
            nonce: nonce,
            keyID: keyID,
            body: Data(request.body.readableBytesView)
        )
        guard let expected = try? SigningWireFormat.signature(of: canonical, using: signingKey),
            ConstantTime.equals(Data(expected.utf8), Data(signature.lowercased().utf8))
        else { return nil }
        return nonce
    }

    /// The request body, opened if it was sealed.
    private static func opened(_ request: LoopbackRequest) -> [UInt8]? {
        let body = Data(request.body.readableBytesView)
        // Wire format 2 names scheme and key id on bodiless requests too: there is nothing to open.
        guard !body.isEmpty, let header = request.head.headers.first(name: EncryptionWireFormat.encryptionHeader.rawName) else {
            return Array(body)
        }
        guard let (schemeName, keyID) = try? EncryptionWireFormat.parseHeader(header), schemeName == scheme.name,
            keyID == SampleBackend.shopKeyID
        else { return nil }
        let aad = EncryptionWireFormat.associatedData(
            direction: .request,
            scheme: scheme,
            keyID: keyID,
            method: request.method.rawValue,
            target: request.uri,
            requestNonce: request.head.headers.first(name: EncryptionWireFormat.requestNonceHeader.rawName)
        )
        return (try? scheme.open(body, key: encryptionKey, aad: aad)).map(Array.init)
    }

    private static func queryPairs(_ request: LoopbackRequest) -> [(String, JSONValue)] {
        guard let query = request.query else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (LoopbackRequest.percentDecoded(parts[0]), .string(parts.count > 1 ? LoopbackRequest.percentDecoded(parts[1]) : ""))
        }
    }

    /// Seals `response` with the shop key and signs it for the request's nonce.
    private static func sealed(_ response: LoopbackResponse, for request: LoopbackRequest, nonce: String) -> LoopbackResponse {
        let keyID = SampleBackend.shopKeyID
        let aad = EncryptionWireFormat.associatedData(
            direction: .response,
            scheme: scheme,
            keyID: keyID,
            method: request.method.rawValue,
            target: request.uri,
            requestNonce: request.head.headers.first(name: EncryptionWireFormat.requestNonceHeader.rawName)
        )
        guard let body = try? scheme.seal(Data(response.body.readableBytesView), key: encryptionKey, aad: aad) else {
            return .envelope(code: 500, msg: "sealing failed", status: .internalServerError)
        }
        let timestamp = Int64(Date().timeIntervalSince1970)
        let canonical = SigningWireFormat.canonicalResponse(
            status: Int(response.status.code),
            timestamp: timestamp,
            requestNonce: nonce,
            keyID: keyID,
            body: body
        )
        let signature = (try? SigningWireFormat.signature(of: canonical, using: signingKey)) ?? ""
        var sealed = response
        sealed.contentType = "application/octet-stream"
        sealed.body = ByteBuffer(bytes: body)
        sealed.extraHeaders = [
            (EncryptionWireFormat.encryptionHeader.rawName, EncryptionWireFormat.headerValue(scheme: scheme, keyID: keyID)),
            (EncryptionWireFormat.contentTypeHeader.rawName, LoopbackResponse.jsonContentType),
            (SigningWireFormat.keyIDHeader.rawName, keyID),
            (SigningWireFormat.timestampHeader.rawName, String(timestamp)),
            (SigningWireFormat.signatureHeader.rawName, signature),
        ]
        return sealed
    }
}

import AsyncHTTPClient
import BenchSampleBackend
import Foundation
import NIOCore
import SwitchyardCrypto

/// Raw AsyncHTTPClient sending one pre-sealed, pre-signed order to the shop module over and over
/// (the shop does not reject replays) and reading the sealed answer without opening it: the same
/// server-side work and bytes on the wire as the full pipeline, with none of the client-side work.
/// The gap between this and `raw-ahc` is what the backend's own crypto and JSON cost.
struct RawShopContender: Sendable {
    let client: HTTPClient
    let url: String
    let body: ByteBuffer
    let headers: [(String, String)]

    init(client: HTTPClient, baseURL: String) throws {
        let path = "/shop-api/orders"
        let keyID = SampleBackend.shopKeyID
        let plaintext = Data(#"{"app":"bench","qty":2,"sku":"A-1","ts":1795000000}"#.utf8)
        let aad = EncryptionWireFormat.associatedData(direction: .request, scheme: .aes256GCM, keyID: keyID, method: "POST", path: path)
        let sealed = try EncryptionScheme.aes256GCM.seal(plaintext, key: SymmetricKey(SampleBackend.shopKey), aad: aad)
        let timestamp = Int64(Date().timeIntervalSince1970)
        let nonce = "0123456789abcdef0123456789abcdef"
        let canonical = SigningWireFormat.canonicalRequest(
            method: "POST",
            target: path,
            timestamp: timestamp,
            nonce: nonce,
            keyID: keyID,
            body: sealed
        )
        let signature = try SigningWireFormat.signature(of: canonical, using: SymmetricKey(SampleBackend.shopSigningKey))
        self.client = client
        self.url = baseURL + path
        self.body = ByteBuffer(bytes: sealed)
        self.headers = [
            ("Content-Type", "application/octet-stream"),
            (EncryptionWireFormat.encryptionHeader.rawName, EncryptionWireFormat.headerValue(scheme: .aes256GCM, keyID: keyID)),
            (EncryptionWireFormat.contentTypeHeader.rawName, "application/json"),
            ("Authorization", "Bearer shop-token-1"),
            (SigningWireFormat.keyIDHeader.rawName, keyID),
            (SigningWireFormat.timestampHeader.rawName, String(timestamp)),
            (SigningWireFormat.nonceHeader.rawName, nonce),
            (SigningWireFormat.signatureHeader.rawName, signature),
        ]
    }

    func call() async throws -> Int {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(body)
        let response = try await client.execute(request, timeout: .seconds(30))
        let answer = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .created else { throw CancellationError() }
        return answer.readableBytes
    }
}

import BenchSampleBackend
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import Synchronization

/// The shop exchange of ``FullPipelineContender`` written by hand, as a careful user would without
/// a pipeline: the wire the pipeline puts out (version 2 encryption with its request nonce, signing
/// with the response verified — its timestamp's skew, key id and signature — the encryption header
/// checked, the same 13 header fields and the same body bytes) over the same transport, into the
/// same model, in one straight function — no stages, no registry, no logging, no null stripping or
/// separate envelope pass (one `Decodable` envelope reads `code` and `data` at once). Nonces come
/// from a pool filled 512 bytes at a time, as the library's own stages draw theirs.
///
/// `fullmem` runs it over the same in-process server, whose time is subtracted the same way: what
/// is left is what this exchange costs a client with no pipeline. `loopback` runs it over the same
/// `AsyncHTTPClientTransport` as the full pipeline: what the full pipeline's wire and transport allow
/// against `raw-ahc-shop`, which replays a version 1 order with 8 fields and does none of the
/// client's work.
struct HandWrittenShopClient: Sendable {
    /// The answer's envelope, code and model in one pass.
    struct Envelope: Decodable {
        let code: Int
        let data: FullPipelineContender.Order?
    }

    let transport: any Switchyard.Transport
    let scheme: String
    let authority: String
    let encryptionKey: SymmetricKey
    let signingKey: SymmetricKey
    let keyID = SampleBackend.shopKeyID
    let path = "/shop-api/orders"
    let decoder = JSONDecoder()
    /// The fields made once, as the pipeline's stages make theirs once.
    let fixedFields: HTTPFields
    /// Random bytes for the two nonces, drawn from OpenSSL 512 at a time.
    let nonces = NoncePool()
    /// The response timestamp's allowed distance from the local clock, as `SigningStage`'s default.
    let allowedSkew: Int64 = 300

    /// A client of the shop at `baseURL` (scheme and authority only) over `transport`.
    init(transport: any Switchyard.Transport, baseURL: String) {
        self.transport = transport
        let url = URL(string: baseURL)!
        scheme = url.scheme ?? "https"
        authority = url.port.map { "\(url.host ?? ""):\($0)" } ?? (url.host ?? "")
        encryptionKey = SymmetricKey(SampleBackend.shopKey)
        signingKey = SymmetricKey(SampleBackend.shopSigningKey)
        fixedFields = [
            .userAgent: UserAgent.default.value,
            .accept: "application/json",
            HTTPField.Name("X-App-Version")!: "2.1.0",
            .acceptLanguage: "en",
            .authorization: "Bearer shop-token-1",
            .contentType: "application/octet-stream",
            EncryptionWireFormat.contentTypeHeader: "application/json",
            EncryptionWireFormat.encryptionHeader: EncryptionWireFormat.headerValue(scheme: .aes256GCM, keyID: SampleBackend.shopKeyID),
            SigningWireFormat.keyIDHeader: SampleBackend.shopKeyID,
        ]
    }

    /// One exchange: seal and sign the order, send it, verify and open the answer, decode it.
    func call() async throws -> Int {
        let timestamp = Int64(Date().timeIntervalSince1970)
        // The body the pipeline sends: the endpoint's parameters, keys sorted, then the common ones.
        let plaintext = Data(#"{"qty":2,"sku":"A-1","app":"bench","ts":\#(timestamp)}"#.utf8)
        let (encryptionNonce, signingNonce) = try nonces.twoHexNonces()
        let aad = EncryptionWireFormat.associatedData(
            direction: .request,
            scheme: .aes256GCM,
            keyID: keyID,
            method: "POST",
            target: path,
            requestNonce: encryptionNonce
        )
        let sealed = try EncryptionScheme.aes256GCM.seal(plaintext, key: encryptionKey, aad: aad)
        let canonical = SigningWireFormat.canonicalRequest(
            method: "POST",
            target: path,
            timestamp: timestamp,
            nonce: signingNonce,
            keyID: keyID,
            body: sealed
        )
        var fields = fixedFields
        fields[EncryptionWireFormat.requestNonceHeader] = encryptionNonce
        fields[SigningWireFormat.timestampHeader] = String(timestamp)
        fields[SigningWireFormat.nonceHeader] = signingNonce
        fields[SigningWireFormat.signatureHeader] = try SigningWireFormat.signature(of: canonical, using: signingKey)
        let request = Switchyard.Request(
            head: HTTPRequest(method: .post, scheme: scheme, authority: authority, path: path, headerFields: fields),
            body: .bytes(sealed)
        )
        let response = try await transport.send(
            request,
            context: CallContext(serviceID: FullPipelineContender.shop, timeout: .seconds(30))
        )

        // Verify: signed by our key, recently, over this status, request nonce and body.
        let answer = response.headerFields
        guard response.status == .created, let body = response.body.bytes, let signature = answer[SigningWireFormat.signatureHeader],
            answer[SigningWireFormat.keyIDHeader] == keyID,
            let answeredAt = answer[SigningWireFormat.timestampHeader].flatMap({ Int64($0) }),
            abs(Int64(Date().timeIntervalSince1970) - answeredAt) <= allowedSkew
        else { throw CancellationError() }
        let expected = try SigningWireFormat.signature(
            of: SigningWireFormat.canonicalResponse(
                status: response.status.code,
                timestamp: answeredAt,
                requestNonce: signingNonce,
                keyID: keyID,
                body: body
            ),
            using: signingKey
        )
        guard ConstantTime.equals(Data(expected.utf8), Data(signature.utf8)) else { throw CancellationError() }
        // Open: sealed with our scheme and key, bound to this request.
        guard let sealing = answer[EncryptionWireFormat.encryptionHeader] else { throw CancellationError() }
        let named = try EncryptionWireFormat.parseHeader(sealing)
        guard named.scheme == EncryptionScheme.aes256GCM.name, named.keyID == keyID else { throw CancellationError() }
        let responseAAD = EncryptionWireFormat.associatedData(
            direction: .response,
            scheme: .aes256GCM,
            keyID: keyID,
            method: "POST",
            target: path,
            requestNonce: encryptionNonce
        )
        let opened = try EncryptionScheme.aes256GCM.open(body, key: encryptionKey, aad: responseAAD)
        let envelope = try decoder.decode(Envelope.self, from: opened)
        guard envelope.code == 0, let order = envelope.data, order.id == 42, order.received.qty == 2 else { throw CancellationError() }
        return 1
    }
}

/// Random bytes drawn from OpenSSL a pool at a time, each handed out once — as a careful user would
/// draw many small nonces (OpenSSL costs about as much per call for 16 bytes as for 512).
final class NoncePool: Sendable {
    private struct Pool {
        var bytes = Data(count: 512)
        var next = 512
    }

    private let pool = Mutex(Pool())

    /// Two fresh 16-byte nonces as lower-case hex.
    func twoHexNonces() throws -> (String, String) {
        let drawn: Data = try pool.withLock { pool in
            if pool.next + 32 > pool.bytes.count {
                pool.bytes = try SecureRandom.bytes(count: 512)
                pool.next = 0
            }
            defer { pool.next += 32 }
            return pool.bytes.subdata(in: pool.next..<(pool.next + 32))
        }
        return (Digest.hex(drawn.prefix(16)), Digest.hex(drawn.suffix(16)))
    }
}

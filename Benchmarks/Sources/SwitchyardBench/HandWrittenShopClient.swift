import BenchSampleBackend
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto

/// The shop exchange of ``FullPipelineContender`` written by hand, as a careful user would without
/// a pipeline: the same wire (version 2 encryption, signing with the response verified, the same
/// header fields and JSON body) and the same model, in one straight function — no stages, no
/// registry, no logging, no null stripping or separate envelope pass (one `Decodable` envelope reads
/// `code` and `data` at once). `fullmem` runs it over the same in-process server, whose time is
/// subtracted the same way: what is left is what the protocol itself costs a client here, the floor
/// under the full pipeline. `loopback` runs it over the same AsyncHTTPClient transport as the full
/// pipeline: the most any client of this protocol can reach against `raw-ahc-shop`, which does none
/// of the client's work.
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
        // The same body the pipeline sends: the parameters and the common ones, keys sorted.
        let plaintext = Data(#"{"app":"bench","qty":2,"sku":"A-1","ts":\#(timestamp)}"#.utf8)
        let encryptionNonce = Digest.hex(try SecureRandom.bytes(count: 16))
        let aad = EncryptionWireFormat.associatedData(
            direction: .request,
            scheme: .aes256GCM,
            keyID: keyID,
            method: "POST",
            target: path,
            requestNonce: encryptionNonce
        )
        let sealed = try EncryptionScheme.aes256GCM.seal(plaintext, key: encryptionKey, aad: aad)
        let signingNonce = Digest.hex(try SecureRandom.bytes(count: 16))
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

        guard response.status == .created, let body = response.body.bytes,
            let signature = response.headerFields[SigningWireFormat.signatureHeader],
            let answeredAt = response.headerFields[SigningWireFormat.timestampHeader].flatMap({ Int64($0) })
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

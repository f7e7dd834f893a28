import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Synchronization
import Testing

@Suite("Signing stage")
struct SigningStageTests {
    static let key = SymmetricKey(Data(repeating: 0x42, count: 32))
    static let ring = try! KeyRing(keyID: "k1", key: key)

    @Test("the canonical request is exactly as documented: sorted, re-encoded query and the body hash")
    func canonicalRequestKnownAnswer() {
        let canonical = SigningWireFormat.canonicalRequest(
            method: "POST",
            target: "/v1/items?b=2&a=x%20y&a=1&c&q=%e4%b8%ad+",
            timestamp: 1_700_000_000,
            nonce: "00112233445566778899aabbccddeeff",
            keyID: "k1",
            body: Data("abc".utf8)
        )
        #expect(
            canonical == """
                switchyard/1 request
                POST
                /v1/items
                a=1&a=x%20y&b=2&c=&q=%E4%B8%AD%2B
                1700000000
                00112233445566778899aabbccddeeff
                k1
                ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
                """
        )
    }

    @Test("the canonical strings keep multi-byte text, a bare trailing ?, an empty body and a sliced body exactly")
    func canonicalEdgeCases() {
        let request = SigningWireFormat.canonicalRequest(
            method: "GET",
            target: "/caf%C3%A9/ü?",
            timestamp: 1,
            nonce: "n",
            keyID: "k-é",
            body: Data()
        )
        #expect(
            request == "switchyard/1 request\nGET\n/caf%C3%A9/ü\n\n1\nn\nk-é\n"
                + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        )
        let sliced = Data("xxabcxx".utf8)[2..<5]
        let response = SigningWireFormat.canonicalResponse(status: 200, timestamp: 2, requestNonce: "ñ", keyID: "k1", body: sliced)
        #expect(
            response == "switchyard/1 response\n200\n2\nñ\nk1\n"
                + "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
    }

    @Test("the published WeChat Pay v2 examples (MD5 and HMAC-SHA256)")
    func weChatPayV2() throws {
        let parameters: [(name: String, value: String)] = [
            ("appid", "wxd930ea5d5a258f4f"), ("mch_id", "10000100"), ("device_info", "1000"), ("body", "test"),
            ("nonce_str", "ibuaiVcKdpRxkhJA"),
        ]
        let secret = SymmetricKey(Data("192006250b4c09247ec02edce69f6a2d".utf8))
        #expect(try SortedParameterSigning.signature(of: parameters, secret: secret, algorithm: .md5) == "9A0A8659F005D6984697E2CA0A9CF3B7")
        #expect(
            try SortedParameterSigning.signature(of: parameters, secret: secret, algorithm: .hmacSHA256)
                == "6A9AE1657590FD6257D693A078E1C3E4BB6BA4DC30B23E0EE2496E54170DACD6"
        )
    }

    @Test("the stage adds key id, timestamp, nonce and a signature over the request as sent")
    func signsHeaders() async throws {
        let stage = SigningStage(keyRing: Self.ring, now: { Date(timeIntervalSince1970: 1_700_000_000) })
        let run = await StageHarness(stage).run(try .fixture(.post, "https://api.test/v1/items?b=2&a=1", body: #"{"x":1}"#))
        let sent = try #require(run.forwardedRequest)
        #expect(sent.headerFields[SigningWireFormat.keyIDHeader] == "k1")
        #expect(sent.headerFields[SigningWireFormat.timestampHeader] == "1700000000")
        let nonce = try #require(sent.headerFields[SigningWireFormat.nonceHeader])
        #expect(nonce.count == 32)
        let canonical = SigningWireFormat.canonicalRequest(
            method: "POST",
            target: "/v1/items?b=2&a=1",
            timestamp: 1_700_000_000,
            nonce: nonce,
            keyID: "k1",
            body: Data(#"{"x":1}"#.utf8)
        )
        #expect(sent.headerFields[SigningWireFormat.signatureHeader] == (try SigningWireFormat.signature(of: canonical, using: Self.key)))
    }

    @Test("every attempt gets a fresh nonce and timestamp")
    func freshPerAttempt() async throws {
        let clock = Clock()
        let transport = MockTransport(.status(.ok))
        let retry = ClosureStage(id: "retry") { request, context, next in
            _ = try await next(request, context)
            clock.advance()
            return try await next(request, context.nextAttempt())
        }
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(
            Service(
                ServiceID("signed"),
                baseURL: "https://api.test",
                stages: [retry, SigningStage(keyRing: Self.ring, now: clock.now)],
                transport: transport
            )
        )
        _ = try await APIClient(registry: registry).send(ServiceID("signed"), .post, "/pay", parameters: ["amount": 1])
        let sent = transport.requests
        #expect(sent.count == 2)
        #expect(sent[0].headerFields[SigningWireFormat.nonceHeader] != sent[1].headerFields[SigningWireFormat.nonceHeader])
        #expect(sent[0].headerFields[SigningWireFormat.timestampHeader] != sent[1].headerFields[SigningWireFormat.timestampHeader])
    }

    /// A server that signs its response for the request's nonce, optionally altered afterwards;
    /// `written` changes how the signature's hex text is sent.
    private func signingServer(
        timestamp: Int64,
        keyID: String = "k1",
        alter: Bool = false,
        unsigned: Bool = false,
        written: @escaping @Sendable (String) -> String = { $0 }
    ) -> MockResponse {
        MockResponse { request, _ in
            let nonce = request.headerFields[SigningWireFormat.nonceHeader] ?? ""
            let body = Data(#"{"paid":true}"#.utf8)
            let canonical = SigningWireFormat.canonicalResponse(
                status: 200,
                timestamp: timestamp,
                requestNonce: nonce,
                keyID: keyID,
                body: body
            )
            var fields: HTTPFields = [.contentType: "application/json"]
            if !unsigned {
                fields[SigningWireFormat.keyIDHeader] = keyID
                fields[SigningWireFormat.timestampHeader] = String(timestamp)
                fields[SigningWireFormat.signatureHeader] = written(try SigningWireFormat.signature(of: canonical, using: Self.key))
            }
            return Response(status: .ok, headerFields: fields, body: alter ? Data(#"{"paid":false}"#.utf8) : body)
        }
    }

    @Test("response verification accepts a valid signature and refuses altered, unsigned, stale or foreign ones")
    func responseVerification() async throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let stage = SigningStage(keyRing: Self.ring, responseVerification: .required, now: { now })
        let request = try Request.fixture(.get, "https://api.test/pay/1")
        #expect(await StageHarness(stage).run(request, respond: signingServer(timestamp: 1_700_000_010)).error == nil)
        // Hex digits compare case-insensitively: an upper-case signature is the same signature.
        let upperCase = signingServer(timestamp: 1_700_000_010, written: { $0.uppercased() })
        #expect(await StageHarness(stage).run(request, respond: upperCase).error == nil)
        let mixedCase = signingServer(timestamp: 1_700_000_010, written: { String($0.prefix(32)) + $0.dropFirst(32).uppercased() })
        #expect(await StageHarness(stage).run(request, respond: mixedCase).error == nil)
        let cases: [(MockResponse, String)] = [
            // Non-ASCII is never a hex digit, lower-cased or not (the Kelvin sign lower-cases to an ASCII k).
            (signingServer(timestamp: 1_700_000_010, written: { "\u{212A}" + $0.dropFirst() }), "does not match"),
            (signingServer(timestamp: 1_700_000_010, written: { "é" + $0.dropFirst() }), "does not match"),
            (signingServer(timestamp: 1_700_000_010, written: { String($0.prefix(32)) }), "does not match"),
            (signingServer(timestamp: 1_700_000_010, written: { $0 + "00" }), "does not match"),
            (signingServer(timestamp: 1_700_000_010, alter: true), "does not match"),
            (signingServer(timestamp: 1_700_000_010, unsigned: true), "not signed"),
            (signingServer(timestamp: 1_699_999_000), "outside the allowed"),
            (signingServer(timestamp: 1_700_000_010, keyID: "k9"), "not in the service's key ring"),
        ]
        for (respond, fragment) in cases {
            let error = await StageHarness(stage).run(request, respond: respond).error
            #expect(error?.code == .crypto)
            #expect(error?.stage == StageID("Signing"))
            #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "no error")")
        }
    }

    @Test("the legacy preset signs query parameters, adding nonce_str and sign")
    func legacyQuery() async throws {
        let secret = try KeyRing(keyID: "mch", key: SymmetricKey(Data("192006250b4c09247ec02edce69f6a2d".utf8)))
        let stage = SigningStage(scheme: SortedParameterSigning(algorithm: .md5), keyRing: secret)
        let run = await StageHarness(stage).run(try .fixture(.get, "https://pay.test/order?appid=wxd930ea5d5a258f4f&body=test&empty="))
        let query = String(try #require(run.forwardedRequest?.query))
        let items = Dictionary(
            uniqueKeysWithValues: query.split(separator: "&").map { item -> (String, String) in
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }
        )
        let nonce = try #require(items["nonce_str"])
        let expected = try SortedParameterSigning.signature(
            of: [("appid", "wxd930ea5d5a258f4f"), ("body", "test"), ("nonce_str", nonce)],
            secret: secret.currentKey,
            algorithm: .md5
        )
        #expect(items["sign"] == expected)
    }

    /// Where a sorted-parameter request carries its parameters, and the `nonce_str` the app set, if any.
    enum NoncePlacement: String, CaseIterable, CustomTestStringConvertible {
        case addedToQuery, appsInQuery, appsInFormBody
        var testDescription: String { rawValue }

        func request() throws -> Request {
            switch self {
            case .addedToQuery: try .fixture(.get, "https://pay.test/order?appid=wx1")
            case .appsInQuery: try .fixture(.get, "https://pay.test/order?nonce_str=app%2Dnonce%2D7&appid=wx1")
            case .appsInFormBody:
                try .fixture(
                    .post,
                    "https://pay.test/order",
                    headerFields: [.contentType: "application/x-www-form-urlencoded"],
                    body: "total_fee=1&nonce_str=app-nonce-7"
                )
            }
        }
    }

    @Test(
        "with the sorted-parameter signature a response is verified against the nonce_str sent, the app's own included",
        arguments: NoncePlacement.allCases
    )
    func sortedParameterResponseNonce(placement: NoncePlacement) async throws {
        let secret = try KeyRing(keyID: "mch", key: SymmetricKey(Data("s3cr3t".utf8)))
        let stage = SigningStage(
            scheme: SortedParameterSigning(algorithm: .md5),
            keyRing: secret,
            responseVerification: .required,
            now: { Date(timeIntervalSince1970: 1_700_000_000) }
        )
        // A server written from Docs/WireFormat.md: the response signature covers the request's nonce_str.
        let server = MockResponse { request, _ in
            let form = request.headerFields[.contentType] == "application/x-www-form-urlencoded"
            let parameters = form ? (request.bodyText ?? "") : String(request.query ?? "")
            let pair = parameters.split(separator: "&").first { $0.hasPrefix("nonce_str=") }
            let nonce = try #require(pair.flatMap { String($0.dropFirst("nonce_str=".count)).removingPercentEncoding })
            let body = Data(#"{"paid":true}"#.utf8)
            let canonical = SigningWireFormat.canonicalResponse(
                status: 200,
                timestamp: 1_700_000_000,
                requestNonce: nonce,
                keyID: "mch",
                body: body
            )
            return Response(
                status: .ok,
                headerFields: [
                    SigningWireFormat.keyIDHeader: "mch", SigningWireFormat.timestampHeader: "1700000000",
                    SigningWireFormat.signatureHeader: try SigningWireFormat.signature(of: canonical, using: secret.currentKey),
                ],
                body: body
            )
        }
        let run = await StageHarness(stage).run(try placement.request(), respond: server)
        #expect(run.error == nil, "\(run.error?.message ?? "")")
        #expect(run.response?.bodyText == #"{"paid":true}"#)
    }

    @Test("the legacy preset signs a form body in place, with sign_type for HMAC-SHA256")
    func legacyFormBody() async throws {
        let secret = try KeyRing(keyID: "mch", key: SymmetricKey(Data("s3cr3t".utf8)))
        let stage = SigningStage(scheme: SortedParameterSigning(algorithm: .hmacSHA256), keyRing: secret)
        let request = try Request.fixture(
            .post,
            "https://pay.test/order",
            headerFields: [.contentType: "application/x-www-form-urlencoded"],
            body: "total_fee=1&nonce_str=abc"
        )
        let run = await StageHarness(stage).run(request)
        let body = try #require(run.forwardedRequest?.bodyText)
        let expected = try SortedParameterSigning.signature(
            of: [("total_fee", "1"), ("nonce_str", "abc"), ("sign_type", "HMAC-SHA256")],
            secret: secret.currentKey,
            algorithm: .hmacSHA256
        )
        #expect(body == "total_fee=1&nonce_str=abc&sign_type=HMAC-SHA256&sign=\(expected)")
        #expect(run.forwardedRequest?.query == nil)
    }

    @Test("the signature is HMAC-SHA256 in lower-case hex: RFC 4231 test cases 1 and 2")
    func signatureKnownAnswers() throws {
        let hiThere = SymmetricKey(Data(repeating: 0x0b, count: 20))
        #expect(
            try SigningWireFormat.signature(of: "Hi There", using: hiThere)
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        )
        let jefe = SymmetricKey(Data("Jefe".utf8))
        #expect(
            try SigningWireFormat.signature(of: "what do ya want for nothing?", using: jefe)
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        )
        // The same as the code the public HMAC gives, written out, for an empty and a long text.
        for text in ["", String(repeating: "canonical\n", count: 500)] {
            let code = try HMAC.authenticationCode(for: Data(text.utf8), using: jefe)
            #expect(try SigningWireFormat.signature(of: text, using: jefe) == Digest.hex(code))
        }
    }
}

/// A clock the test advances by a minute at a time.
private final class Clock: Sendable {
    private let seconds = Mutex<Double>(1_700_000_000)
    func advance() { seconds.withLock { $0 += 60 } }
    var now: @Sendable () -> Date { { [self] in Date(timeIntervalSince1970: seconds.withLock { $0 }) } }
}

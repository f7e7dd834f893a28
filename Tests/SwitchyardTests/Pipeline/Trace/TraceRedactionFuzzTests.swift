import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// A trace taken with redaction never holds a value the redaction rules name, whatever the header
/// field and JSON member names look like.
@Suite("Trace: redaction holds under fuzzed names")
struct TraceRedactionFuzzTests {
    /// Names the default rules call secret, in assorted spellings.
    static let secretNames = [
        "Authorization", "X-Api-Key", "api_key", "apiKey", "access_token", "refreshToken", "password", "Passwd",
        "client_secret", "X-Auth-Token", "session_id", "sid", "pin", "otp", "jwt", "cvv", "Cookie", "Set-Cookie",
        "PrivateKey", "user.password", "X-Signature", "signature",
    ]

    @Test("no secret value reaches a trace, across 300 random pipelines", arguments: 0..<3)
    func fuzz(seed: Int) async throws {
        var generator = SeededGenerator(state: UInt64(seed + 1))
        for round in 0..<100 {
            let name = Self.secretNames.randomElement(using: &generator)!
            let cased = String(name.map { Bool.random(using: &generator) ? Character($0.uppercased()) : $0 })
            let secret = "SECRET\(round)x\(UInt32.random(in: 0...UInt32.max, using: &generator))"
            guard Redaction.default.isSensitive(cased), let field = HTTPField.Name(cased.replacingOccurrences(of: ".", with: "-")) else {
                continue
            }
            let nested = Bool.random(using: &generator)
            let member = nested ? #"{"outer":{"\#(cased)":"\#(secret)","n":1}}"# : #"{"\#(cased)":"\#(secret)"}"#
            let stage = ClosureStage.request(id: "Adds") { request, _ in
                request.headerFields[field] = secret
                request.headerFields[.contentType] = "application/json"
                request.body = .bytes(Data(member.utf8))
            }
            let answer = MockTransport { _, _ in
                Response(status: .ok, headerFields: [field: secret, .contentType: "application/json"], body: Data(member.utf8))
            }
            let rewrite = ClosureStage.response(id: "Rewrites") { response, _, _ in
                response.body = .bytes(Data(#"{"ok":true,"\#(cased)":"\#(secret)2"}"#.utf8))
            }
            let client = try makeClient(stages: [rewrite, stage], defaults: ServiceDefaults(trace: .bodies), transport: answer)
            let result = try await client.send(.users, .post, "/users/\(round)?\(cased)=\(secret)")
            let encoded = String(decoding: try JSONEncoder().encode(result.trace), as: UTF8.self)
            #expect(!encoded.contains(secret), "round \(round): \(cased) leaked")
            #expect(!(result.trace?.description.contains(secret) ?? true))
        }
    }
}

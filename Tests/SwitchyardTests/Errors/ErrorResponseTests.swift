import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

extension SwitchyardError.Code {
    /// A code this test module defines under a name the core also uses.
    fileprivate static let testTimeout = SwitchyardError.Code("timeout")
}

@Suite("Errors: the response that arrived, typed stage detail, no raw bodies in text")
struct ErrorResponseTests {
    private static let secretBody = #"{"code":4004,"msg":"no such user","data":null,"refresh_token":"r3fr3sh-s3cr3t"}"#

    private func failure(stages: [any Stage], answer: MockResponse, options: CallOptions? = nil) async throws -> SwitchyardError? {
        let client = try makeClient(stages: stages, transport: MockTransport(answer))
        return await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(GetUser(id: "1"), options: options)
        }
    }

    @Test("a validation failure carries the status, header fields and body that arrived")
    func validationCarriesResponse() async throws {
        let error = try await failure(
            stages: [ValidationStage()],
            answer: .status(.serviceUnavailable, body: "down for maintenance", headerFields: [.retryAfter: "30"])
        )
        #expect(error?.code == .httpStatus)
        #expect(error?.stage == .validation)
        #expect(error?.status?.code == 503)
        #expect(error?.response?.headerFields[.retryAfter] == "30")
        #expect(error?.response?.bodyText == "down for maintenance")
    }

    @Test("an envelope failure carries the response and an EnvelopeFailure detail with code and server message")
    func envelopeCarriesResponseAndDetail() async throws {
        let error = try await failure(stages: [EnvelopeStage(successCodes: [0])], answer: .json(Self.secretBody))
        #expect(error?.code == .business)
        #expect(error?.stage == .envelope)
        #expect(error?.detail(as: EnvelopeFailure.self) == EnvelopeFailure(businessCode: "4004", serverMessage: "no such user"))
        #expect(error?.status == .ok)
        #expect(error?.response?.bodyText == Self.secretBody)
    }

    @Test("a decoding failure carries the response whose body did not decode")
    func decodingCarriesResponse() async throws {
        let error = try await failure(stages: [], answer: .json(#"{"id":"not a number"}"#))
        #expect(error?.code == .decoding)
        #expect(error?.response?.bodyText == #"{"id":"not a number"}"#)
        #expect(error?.response?.headerFields[.contentType] == "application/json")
    }

    @Test("description never prints the body; debugDescription prints its length and a redacted preview")
    func noRawBodiesInText() async throws {
        let error = try #require(try await failure(stages: [EnvelopeStage(successCodes: [0])], answer: .json(Self.secretBody)))
        #expect(!error.description.contains("r3fr3sh"))
        #expect(error.description.contains("business code 4004"))
        #expect(!error.debugDescription.contains("r3fr3sh-s3cr3t"))
        #expect(error.debugDescription.contains("\(Self.secretBody.utf8.count) bytes"))
        #expect(error.debugDescription.contains("no such user"))
    }

    @Test("debugDescription does not preview binary bodies")
    func binaryBodiesAreNotPreviewed() {
        let response = Response(
            status: .badRequest,
            headerFields: [.contentType: "application/octet-stream"],
            body: Data([0xFF, 0xFE, 0x00, 0x41])
        )
        let error = SwitchyardError(code: .httpStatus, message: "bad", response: response)
        #expect(error.debugDescription.contains("4 bytes"))
        #expect(!error.debugDescription.contains("preview"))
    }

    @Test("debugDescription redacts a JSON body by member name whatever its declared type (here text/plain, after a line break)")
    func jsonDeclaredAsTextIsRedacted() {
        let response = Response(
            status: .unauthorized,
            headerFields: [.contentType: "text/plain"],
            body: Data("\n{\"error\":\"expired\",\"refresh_token\":\"r3fr3sh-s3cr3t\"}".utf8)
        )
        let error = SwitchyardError(code: .httpStatus, message: "unauthorized", response: response)
        #expect(!error.debugDescription.contains("r3fr3sh-s3cr3t"))
        #expect(error.debugDescription.contains(#""refresh_token":"<redacted>""#))
    }

    @Test("description hides a secret-shaped path segment in an endpoint named by its path")
    func endpointPathIsRedacted() {
        var error = SwitchyardError(code: .transport, message: "the connection was reset")
        error.endpoint = "POST /reset/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA/confirm"
        #expect(error.description.contains("endpoint POST /reset/<redacted>/confirm"))
        #expect(!error.description.contains("Zm9vYmFy"))
    }

    @Test("codes belong to the module that defines them: a same-named code elsewhere is a different code")
    func codesAreNamespacedByModule() {
        #expect(SwitchyardError.Code.testTimeout != .timeout)
        #expect(SwitchyardError.Code.timeout.rawValue == "timeout")
        #expect(SwitchyardError.Code.testTimeout.module == "SwitchyardTests")
        #expect(SwitchyardError.Code.testTimeout.rawValue == "SwitchyardTests.timeout")
    }

    @Test("description redacts URLs inside the underlying error's text: a token in the query, user information")
    func underlyingURLsRedacted() {
        struct FailedURL: Error, CustomStringConvertible {
            var description: String {
                "Error Domain=NSURLErrorDomain Code=-1004 UserInfo={NSErrorFailingURLStringKey=https://ada:pa55@api.test/me?access_token=abc123&page=2, reason}"
            }
        }
        let error = SwitchyardError(code: .transport, message: "could not connect", underlyingError: FailedURL())
        #expect(!error.description.contains("abc123"))
        #expect(!error.description.contains("pa55"))
        #expect(error.description.contains("api.test/me?access_token=<redacted>&page=2"))
        #expect(error.description.hasSuffix(", reason}"))
    }
}

import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Errors people can show: LocalizedError, texts mapped per code, nothing secret")
struct UserMessageTests {
    /// The shop's texts: one business code, and a body that is not an envelope at all.
    private static let shopTexts: EnvelopeStage.MessageMapper = { code, _ in
        switch code {
        case "4004": "Dieser Artikel ist ausverkauft."
        case nil: "The server's data is malformed, try again later."
        default: nil
        }
    }

    private func failure(_ stage: EnvelopeStage, answer: MockResponse) async throws -> SwitchyardError? {
        let client = try makeClient(stages: [stage], transport: MockTransport(answer))
        return await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(GetUser(id: "1"))
        }
    }

    @Test("a mapped business code: the user's text without ' (code N)', as message and localizedDescription")
    func mappedBusinessCode() async throws {
        let error = try #require(
            try await failure(
                EnvelopeStage(successCodes: [0], messages: Self.shopTexts),
                answer: .json(#"{"code":4004,"msg":"SKU_OUT_OF_STOCK"}"#)
            )
        )
        #expect(error.code == .business)
        #expect(error.message == "Dieser Artikel ist ausverkauft.")
        #expect(error.userMessage == "Dieser Artikel ist ausverkauft.")
        #expect(error.errorDescription == "Dieser Artikel ist ausverkauft.")
        #expect((error as any Error).localizedDescription == "Dieser Artikel ist ausverkauft.")
        // The developer still sees the code and the server's words.
        #expect(error.description.contains("business code 4004"))
        #expect(error.detail(as: EnvelopeFailure.self)?.serverMessage == "SKU_OUT_OF_STOCK")
    }

    @Test("an unmapped business code: the user sees the server's message, the developer's message keeps the code")
    func unmappedBusinessCode() async throws {
        let error = try #require(
            try await failure(
                EnvelopeStage(successCodes: [0], messages: Self.shopTexts),
                answer: .json(#"{"code":5000,"msg":"Bitte später erneut versuchen."}"#)
            )
        )
        #expect(error.message == "Bitte später erneut versuchen. (code 5000)")
        #expect(error.localizedDescription == "Bitte später erneut versuchen.")
        let silent = try #require(try await failure(EnvelopeStage(successCodes: [0]), answer: .json(#"{"code":5000}"#)))
        #expect(silent.userMessage == nil)
        #expect(silent.localizedDescription == "The server could not complete the request. Please try again later.")
    }

    @Test(
        "a body that is not an envelope at all gets the text mapped for the code nil",
        arguments: ["<html>maintenance</html>", "[1,2]", #"{"msg":"no code"}"#, #"{"code":0,"data":"#]
    )
    func notAnEnvelope(body: String) async throws {
        let error = try #require(
            try await failure(EnvelopeStage(successCodes: [0], messages: Self.shopTexts), answer: .json(body))
        )
        #expect(error.code == .invalidResponse)
        #expect(error.localizedDescription == "The server's data is malformed, try again later.")
        #expect(error.message != error.localizedDescription)
    }

    @Test("without a text for it, a body that is not an envelope says something general, never the parser's detail")
    func notAnEnvelopeUnmapped() async throws {
        let mapsOnlyCodes = EnvelopeStage(successCodes: [0]) { code, _ in code == "4004" ? "Ausverkauft." : nil }
        for stage in [EnvelopeStage(successCodes: [0]), mapsOnlyCodes] {
            let error = try #require(try await failure(stage, answer: .json("<html>maintenance</html>")))
            #expect(error.code == .invalidResponse)
            #expect(error.userMessage == nil)
            #expect(error.localizedDescription == "The server's answer could not be read. Please try again later.")
        }
    }

    @Test("an answer no one vouched for is not read as an envelope; the user is shown the malformed-data text")
    func unverifiedAnswer() async throws {
        let unverified = ClosureStage.response(id: "unverify") { response, _, _ in response.isUnverified = true }
        let client = try makeClient(
            stages: [EnvelopeStage(successCodes: [0], messages: Self.shopTexts), unverified],
            transport: MockTransport(.json(#"{"code":4004,"msg":"SKU_OUT_OF_STOCK"}"#))
        )
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(GetUser(id: "1")) }
        #expect(error?.code == .invalidResponse)
        #expect(error?.localizedDescription == "The server's data is malformed, try again later.")
    }

    @Test("an error nobody chose a text for says something general: no URL, path, query or token")
    func generalTexts() {
        let timeout = SwitchyardError.timedOut(
            target: "GET https://api.test/users/7?access_token=s3cr3t",
            limit: .seconds(1),
            elapsed: .seconds(1)
        )
        #expect(timeout.localizedDescription == "The server took too long to answer. Please try again.")
        var transport = SwitchyardError(code: .transport, message: "https://api.test/me?access_token=s3cr3t failed")
        transport.endpoint = "/users/s3cr3t"
        #expect(!transport.localizedDescription.contains("s3cr3t") && !transport.localizedDescription.contains("api.test"))
        #expect(SwitchyardError(code: .decoding, message: "the key 'id' is missing").localizedDescription.contains("could not be read"))
        #expect(SwitchyardError(code: .refused, message: "x").errorDescription == "The request could not be completed.")
        #expect(
            SwitchyardError(code: SwitchyardError.Code("ownCode"), message: "x").errorDescription == "The request could not be completed."
        )
    }

    @Test("a chosen text keeps its words but no URL's secrets; an empty one falls back to the general text")
    func chosenTextRedacted() {
        var error = SwitchyardError(code: .business, message: "x")
        error.userMessage = "Open https://shop.test/reset?token=abc123&lang=de to continue."
        #expect(error.localizedDescription.hasPrefix("Open https://shop.test/reset?token="))
        #expect(!error.localizedDescription.contains("abc123"))
        #expect(error.localizedDescription.hasSuffix("to continue."))
        error.userMessage = ""
        #expect(error.localizedDescription == "The server could not complete the request. Please try again later.")
    }

    @Test("a stage of the app's own can choose the text for any code, with the hook shapes that exist")
    func ownStageMapsAnyCode() async throws {
        let texts = ClosureStage(id: "texts") { request, context, next in
            do {
                return try await next(request, context)
            } catch var error as SwitchyardError where error.code == .httpStatus && error.status == .serviceUnavailable {
                error.userMessage = "Wartungsarbeiten — bitte später erneut versuchen."
                throw error
            }
        }
        let client = try makeClient(stages: [texts, ValidationStage()], transport: MockTransport(.status(.serviceUnavailable)))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(GetUser(id: "1")) }
        #expect(error?.localizedDescription == "Wartungsarbeiten — bitte später erneut versuchen.")
    }
}

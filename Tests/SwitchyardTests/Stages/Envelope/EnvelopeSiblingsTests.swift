import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAppState
import SwitchyardTesting
import Testing

/// The members a list service sends beside its payload.
private struct PageInfo: Decodable, Sendable, Equatable, ResponseMetadataKey {
    typealias Value = PageInfo
    var total: Int?
    var hasMore: Bool?
    var serverTime: Int?
    var sign: String?
}

/// A sibling type with a required member.
private struct Required: Decodable, Sendable, ResponseMetadataKey {
    typealias Value = Required
    var total: Int
}

@Suite("Envelope siblings")
struct EnvelopeSiblingsTests {
    private func client(
        _ body: String,
        stage: EnvelopeStage = EnvelopeStage(successCodes: [0]).decodingSiblings(as: PageInfo.self)
    ) throws
        -> APIClient
    {
        try makeClient(stages: [stage], transport: MockTransport(.json(body)))
    }

    @Test("members beside code, msg and data are decoded typed and offered on the result")
    func decodedTyped() async throws {
        let client = try client(
            #"{"code":0,"msg":"ok","data":[1,2],"total":42,"hasMore":true,"serverTime":1700000000,"sign":"abc"}"#
        )
        let result = try await client.send(.users, .get, "/items", as: [Int].self)
        #expect(result.value == [1, 2])
        #expect(result.metadata[PageInfo.self] == PageInfo(total: 42, hasMore: true, serverTime: 1_700_000_000, sign: "abc"))
        #expect(result.metadata[EnvelopeStage.Outcome.self]?.code == "0")
    }

    @Test("the payload is never read as a sibling, even when it has members of the same names")
    func payloadIsNotASibling() async throws {
        let client = try client(#"{"code":0,"data":{"total":99,"hasMore":false}}"#)
        let result = try await client.send(.users, .get, "/items")
        #expect(result.metadata[PageInfo.self] == PageInfo())
        #expect(result.value.bodyText == #"{"total":99,"hasMore":false}"#)
    }

    @Test("absent or null siblings are not a failure: optional members are nil, a required one leaves the value nil")
    func absentSiblings() async throws {
        let result = try await client(#"{"code":0,"msg":"ok","data":[],"hasMore":null}"#).send(.users, .get, "/items")
        #expect(result.metadata[PageInfo.self] == PageInfo())
        let required = try client(#"{"code":0,"data":[]}"#, stage: EnvelopeStage(successCodes: [0]).decodingSiblings(as: Required.self))
        let bare = try await required.send(.users, .get, "/items")
        #expect(bare.metadata[Required.self] == nil)
        #expect(bare.metadata[EnvelopeStage.Outcome.self] != nil)
    }

    @Test("a malformed sibling fails the call with a decoding error naming the member and the envelope stage")
    func malformedSibling() async throws {
        let client = try client(#"{"code":0,"data":[],"hasMore":"yes"}"#)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.users, .get, "/items") }
        #expect(error?.code == .decoding)
        #expect(error?.stage == .envelope)
        #expect(error?.message.contains("hasMore") == true)
        #expect(error?.response?.status == .ok)
    }

    @Test("a stage without a sibling type keeps none, and a business failure decodes none")
    func onlyWhenDeclaredAndSuccessful() async throws {
        let plain = try client(#"{"code":0,"data":[],"total":3}"#, stage: EnvelopeStage(successCodes: [0]))
        #expect(try await plain.send(.users, .get, "/items").metadata[PageInfo.self] == nil)
        let failing = try client(#"{"code":5,"msg":"no","data":[],"hasMore":"malformed but never read"}"#)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await failing.send(.users, .get, "/items") }
        #expect(error?.code == .business)
    }

    @Test("a paginator reads hasMore from the siblings and stops when it is false")
    func paginatorStops() async throws {
        // Two full pages of two items: counting items would ask for a third; the server says there is none.
        let transport = MockTransport { request, _ in
            let page = request.query?.contains("page=2") == true ? 2 : 1
            let body = #"{"code":0,"data":[\#(page * 10),\#(page * 10 + 1)],"hasMore":\#(page < 2)}"#
            return Response(status: .ok, headerFields: [.contentType: "application/json"], body: Data(body.utf8))
        }
        let client = try makeClient(stages: [EnvelopeStage(successCodes: [0]).decodingSiblings(as: PageInfo.self)], transport: transport)
        let paginator = Paginator<Int>(.page(size: 2)) { page in
            let result = try await client.send(.users, .get, "/items", parameters: ["page": .int(page.page!)], as: [Int].self)
            return .init(items: result.value, hasMore: result.metadata[PageInfo.self]?.hasMore)
        }
        try await paginator.refresh()
        #expect(paginator.hasMore)
        try await paginator.loadMore()
        #expect(!paginator.hasMore)
        try await paginator.loadMore()
        #expect(paginator.items == [10, 11, 20, 21])
        #expect(transport.requests.count == 2)
    }
}

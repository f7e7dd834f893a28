import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

private struct Article: Decodable, Sendable, Equatable {
    let id: Int
    let title: String
}

@Suite("Lossy list decoding: failing elements are dropped and reported, not fatal")
struct LossyArrayTests {
    private let body = #"[{"id":1,"title":"a"},{"id":"two","title":"b"},{"title":"c"},7,null,{"id":3,"title":"d"}]"#

    @Test("good elements decode in order; each bad one is reported with its index and why")
    func decodesAndReports() throws {
        let list = try JSONDecoder().decode(LossyArray<Article>.self, from: Data(body.utf8))
        #expect(list.elements == [Article(id: 1, title: "a"), Article(id: 3, title: "d")])
        #expect(list.dropped.map(\.index) == [1, 2, 3, 4])
        #expect(list.dropped[0].reason.contains("id"))
        #expect(list.dropped[1].reason.contains("has no 'id'"))
    }

    @Test("through the reformer on a call")
    func reformer() async throws {
        let client = try makeClient(transport: MockTransport(.json(body)))
        let list = try await client.send(
            DynamicEndpoint<Response>(service: .users, method: .get, path: "/articles").reformed(by: LossyListReformer<Article>())
        ).value
        #expect(list.elements.count == 2)
        #expect(list.dropped.count == 4)
    }

    @Test("a body that is not an array still fails as a decoding error")
    func notAnArray() async throws {
        let client = try makeClient(transport: MockTransport(.json(#"{"items":[]}"#)))
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(
                DynamicEndpoint<Response>(service: .users, method: .get, path: "/articles").reformed(by: LossyListReformer<Article>())
            )
        }
        #expect(error?.code == .decoding)
    }
}

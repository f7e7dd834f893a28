import Foundation
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Reformers")
struct ReformerTests {
    struct Profile: Decodable, Sendable, Equatable {
        let displayName: String
        let avatar: String
        let friends: [Friend]
        struct Friend: Decodable, Sendable, Equatable { let displayName: String }
    }

    private let body = #"{"nick_nm":"Ada","hd_img":"nick_nm","friends":[{"nick_nm":"Lin"}],"extra":null}"#

    @Test("the key-map reformer renames member names at every depth and never values")
    func keyMap() throws {
        let renamed = KeyMapReformer<Profile>.renaming(Data(body.utf8), ["nick_nm": "displayName", "hd_img": "avatar"])
        #expect(
            String(decoding: renamed, as: UTF8.self)
                == #"{"displayName":"Ada","avatar":"nick_nm","friends":[{"displayName":"Lin"}],"extra":null}"#
        )
        let profile = try KeyMapReformer<Profile>(["nick_nm": "displayName", "hd_img": "avatar"])
            .reform(Response(status: .ok, body: Data(body.utf8)), context: ReformContext(serviceID: .users))
        #expect(profile == Profile(displayName: "Ada", avatar: "nick_nm", friends: [.init(displayName: "Lin")]))
    }

    @Test("chosen per call: decodable, key-map and two-step entity → display text, through the client")
    func perCall() async throws {
        let client = try makeClient(transport: MockTransport(.json(#"{"id":7,"name":"Ada","joined_at":"2026-01-02"}"#)))
        let user = try await client.send(GetUser(id: "7").reformed(by: DecodableReformer<User>())).value
        #expect(user == User(id: 7, name: "Ada"))
        let text = try await client.send(GetUser(id: "7").reformed(by: DecodableReformer<User>().map { "\($0.name) (#\($0.id))" }))
        #expect(text.value == "Ada (#7)")
        #expect(text.status == .ok)
        struct Member: Decodable, Sendable {
            let memberName: String
            let joinedAt: String
        }
        let member = try await client.send(
            DynamicEndpoint<Response>(service: .users, method: .get, path: "/users/7").reformed(
                by: KeyMapReformer<Member>(["name": "memberName", "joined_at": "joinedAt"])
            )
        )
        #expect(member.value.memberName == "Ada" && member.value.joinedAt == "2026-01-02")
        let snake = JSONDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        struct Joined: Decodable, Sendable { let joinedAt: String }
        #expect(
            try await client.send(GetUser(id: "7").reformed(by: DecodableReformer<Joined>(decoder: snake))).value.joinedAt == "2026-01-02"
        )
    }

    @Test("a reformer's failure is a decoding error naming the reformer, with the status and body")
    func failure() async throws {
        let client = try makeClient(transport: MockTransport(.json(#"{"id":"seven"}"#)))
        do {
            _ = try await client.send(GetUser(id: "7").reformed(by: DecodableReformer<User>().map { $0.name }))
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == .decoding)
            #expect(error.stage?.rawValue.hasPrefix("TwoStepReformer") == true)
            #expect(error.status == .ok)
            #expect(error.response?.bytes == Data(#"{"id":"seven"}"#.utf8))
        }
        struct Empty: Error {}
        let refusing = DecodableReformer<User>().map { user -> String in throw Empty() }
        await #expect(throws: SwitchyardError.self) {
            try await makeClient(transport: MockTransport(.json(#"{"id":1,"name":"A"}"#))).send(GetUser(id: "1").reformed(by: refusing))
        }
    }
}

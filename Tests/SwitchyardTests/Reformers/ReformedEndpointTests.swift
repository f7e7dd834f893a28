import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAppState
import SwitchyardTesting
import Testing

@Suite("Reformed endpoints: endpoint.reformed(by:) through send, start and the completion form", .timeLimit(.minutes(1)))
struct ReformedEndpointTests {
    /// Keeps the context it was given and returns the body as text.
    struct ContextKeeping: Reformer {
        let seen: Locked<ReformContext?>
        func reform(_ response: Response, context: ReformContext) throws -> String {
            seen.withLock { $0 = context }
            return response.bodyText
        }
    }

    /// `GetUser` with a name and options of its own.
    struct GetMember: Endpoint {
        typealias Output = User
        var service: ServiceID { .users }
        var method: HTTPRequest.Method { .get }
        var path: String { "/members/7" }
        var name: String { "member" }
        var options: CallOptions {
            var options = CallOptions(timeout: .seconds(3), tags: ["members"])
            options.headerFields[HTTPField.Name("X-From-Options")!] = "yes"
            return options
        }
    }

    static let ada = #"{"id":7,"name":"Ada"}"#

    @Test("reformed(by:) keeps every member of the base endpoint")
    func keepsTheBase() {
        let reformed = GetMember().reformed(by: DecodableReformer<User>().map(\.name))
        #expect(reformed.name == "member" && reformed.service == .users && reformed.path == "/members/7")
        #expect(reformed.options.timeout == .seconds(3) && reformed.options.tags == ["members"])
        #expect(reformed.acceptedMediaType == "application/json")
    }

    @Test("the reformer's context names the call: its id, service and endpoint")
    func contextNamesTheCall() async throws {
        let seen = Locked<ReformContext?>(nil)
        let client = try makeClient(transport: MockTransport(.json(Self.ada)))
        let result = try await client.send(GetMember().reformed(by: ContextKeeping(seen: seen)))
        let context = try #require(seen.withLock { $0 })
        #expect(result.value == Self.ada)
        #expect(context.requestID == result.requestID && context.serviceID == .users && context.endpointName == "member")
    }

    @Test("a reformed endpoint sends the base endpoint's options under its name")
    func sendsTheBaseOptions() async throws {
        let transport = MockTransport(.json(Self.ada))
        let result = try await makeClient(transport: transport).send(GetMember().reformed(by: DecodableReformer<User>().map(\.name)))
        #expect(result.value == "Ada" && result.endpointName == "member" && result.tags == ["members"])
        #expect(transport.requests.first?.headerFields[HTTPField.Name("X-From-Options")!] == "yes")
        #expect(transport.requests.first?.headerFields[.accept] == "application/json")
    }

    @Test("a reformed endpoint runs through a handle and through the completion form")
    func handleAndCompletion() async throws {
        let client = try makeClient(transport: MockTransport(.json(Self.ada)))
        let handle = client.start(GetUser(id: "7").reformed(by: DecodableReformer<User>().map(\.name)))
        #expect(try await handle.value == "Ada")
        let queue = DispatchQueue(label: "reform-completions")
        let outcome = await withCheckedContinuation { continuation in
            client.send(GetUser(id: "7").reformed(by: DecodableReformer<User>().map(\.id)), queue: queue) { result in
                continuation.resume(returning: result)
            }
        }
        #expect(try outcome.get().value == 7)
    }

    @Test("a reformer's failure through a handle is a decoding error naming the reformer")
    func failureThroughHandle() async throws {
        let client = try makeClient(transport: MockTransport(.json(#"{"id":"seven"}"#)))
        let handle = client.start(GetUser(id: "7").reformed(by: DecodableReformer<User>()))
        let error = try #require(await handle.result.error)
        #expect(error.code == .decoding && error.status == .ok)
        #expect(error.stage == StageID(typeName: DecodableReformer<User>.self))
        #expect(error.requestID == handle.id && error.endpoint == GetUser(id: "7").name)
    }

    @Test("a reformer whose output is a file is an ordinary call, and its context names the call")
    func fileOutputReformer() async throws {
        struct FileNaming: Reformer {
            let seen: Locked<ReformContext?>
            func reform(_ response: Response, context: ReformContext) -> DownloadedFile {
                seen.withLock { $0 = context }
                return DownloadedFile(url: URL(fileURLWithPath: "/reports/\(response.bodyText)"), byteCount: 0)
            }
        }
        let seen = Locked<ReformContext?>(nil)
        let client = try makeClient(transport: MockTransport(.json(#""q3.pdf""#)))
        let result = try await client.send(GetMember().reformed(by: FileNaming(seen: seen)))
        #expect(result.value.url.lastPathComponent == #""q3.pdf""#)
        #expect(seen.withLock { $0 }?.requestID == result.requestID)
    }
}

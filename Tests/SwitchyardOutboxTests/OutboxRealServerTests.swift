import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardTestSupport
import Testing

@testable import SwitchyardOutbox

/// Against `Tests/Outbox/order_server.py`, a server outside the library that honours Idempotency-Key
/// and records the token each applied call carried.
@Suite("Outbox against the Python order server")
struct OutboxRealServerTests {
    struct ServerState: Decodable {
        let orders: [String: Int]
        let tokens: [String: String]
        let requests: Int
        let replays: Int
    }

    /// Starts the server (on `port`, or a free one); `nil` when python3 cannot run it outside CI.
    static func startServer(port: Int = 0) async throws -> Int? {
        guard await PythonSupervisor.runsSuite(importing: "sqlite3", skipped: "Outbox real-server tests skipped: python3 is missing")
        else { return nil }
        let line = try PythonSupervisor.launch("Outbox/order_server.py", arguments: ["--supervised", String(port)]).get()
        struct Ready: Decodable { let port: Int }
        return try JSONDecoder().decode(Ready.self, from: line).port
    }

    /// A free loopback port, found by binding one and letting it go.
    static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func client(port: Int, token: TokenBox) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        let stamp = ClosureStage.request(id: "Token") { request, _ in
            request.headerFields[.authorization] = "Bearer \(token.value)"
        }
        try registry.register(Service(.shop, baseURL: "http://127.0.0.1:\(port)", stages: [stamp], transport: AsyncHTTPClientTransport()))
        return APIClient(registry: registry)
    }

    static func state(_ client: APIClient) async throws -> ServerState {
        try await client.send(.shop, .get, "/state", as: ServerState.self).value
    }

    @Test("after endSession no queued call of that account reaches the server")
    func endSessionKeepsCallsFromTheServer() async throws {
        guard let port = try await Self.startServer() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let token = TokenBox()
        let client = try Self.client(port: port, token: token)
        let outbox = try await Outbox(file: directory.appendingPathComponent("outbox.sqlite"), client: client)
        for number in 1...3 { try await outbox.enqueue(try OutboxFixture.order("ann-\(number)", account: "ann")) }
        try await outbox.enqueue(try OutboxFixture.order("bob-1", account: "bob"))
        try await outbox.endSession(account: "ann")
        token.value = "bob-token"
        try await outbox.drain()
        let state = try await Self.state(client)
        #expect(state.orders == ["bob-1": 1])
        #expect(Set(state.tokens.values) == ["Bearer bob-token"])
        await outbox.close()
    }

    @Test("with the server down for a while, waiting calls wait, then all succeed in order")
    func waitingCallsSurviveAnOutage() async throws {
        guard await PythonSupervisor.runsSuite(importing: "sqlite3", skipped: "Outbox real-server tests skipped: python3 is missing")
        else { return }
        let port = try Self.freePort()
        let client = try Self.client(port: port, token: TokenBox())
        var options = CallOptions(deadline: .seconds(30))
        options.waitsForConnectivity = true
        let calls = Task {
            var applied: [String] = []
            for number in 1...3 {
                let answer = try await client.send(
                    .shop,
                    .post,
                    "/orders",
                    body: .json(["order": "order-\(number)"]),
                    headerFields: [Outbox.idempotencyKeyField: UUID().uuidString],
                    options: options
                )
                applied.append(answer.value.bodyText)
            }
            return applied
        }
        for await state in client.connectivity.updates() where state == .unreachable { break }
        _ = try await Self.startServer(port: port)
        let applied = try await calls.value
        #expect(applied.count == 3)
        let state = try await Self.state(client)
        #expect(state.orders == ["order-1": 1, "order-2": 1, "order-3": 1])
    }

    @Test("without waitsForConnectivity a call to a server that is down fails at once; a deadline bounds a waiting one")
    func offlineFailuresAreTyped() async throws {
        let port = try Self.freePort()
        let client = try Self.client(port: port, token: TokenBox())
        do {
            _ = try await client.send(.shop, .get, "/state")
            Issue.record("a call to a closed port succeeded")
        } catch {
            #expect(error.code == .transport)
        }
        var options = CallOptions(deadline: .milliseconds(500))
        options.waitsForConnectivity = true
        do {
            _ = try await client.send(.shop, .get, "/state", options: options)
            Issue.record("a waiting call to a closed port succeeded")
        } catch {
            #expect(error.code == .timeout)
        }
    }
}

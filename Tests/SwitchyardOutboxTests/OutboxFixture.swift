import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting

@testable import SwitchyardOutbox

extension ServiceID {
    static let shop: ServiceID = "shop"
}

/// A temporary store and a client whose one service answers through `respond`, with a token stage
/// that stamps each request with the token current when it is sent.
struct OutboxFixture {
    let directory: URL
    let transport: MockTransport
    let client: APIClient
    let token: TokenBox

    /// The store's file.
    var file: URL { directory.appendingPathComponent("outbox.sqlite") }

    init(
        _ respond: @escaping @Sendable (Request, CallContext) async throws -> Response = { _, _ in
            Response(status: .ok, headerFields: [:], body: Data("{}".utf8))
        }
    )
        throws
    {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
        transport = MockTransport(respond)
        let token = TokenBox()
        self.token = token
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        let stamp = ClosureStage.request(id: "Token") { request, _ in
            request.headerFields[.authorization] = "Bearer \(token.value)"
        }
        try registry.register(Service(.shop, baseURL: "https://shop.example", stages: [stamp], transport: transport))
        client = APIClient(registry: registry)
    }

    /// A configuration that retries quickly.
    static func quick(maxAge: Duration = .seconds(3600)) -> Outbox.Configuration {
        Outbox.Configuration(retryPolicy: RetryPolicy(baseDelay: .milliseconds(1), maxDelay: .milliseconds(5), jitter: 0), maxAge: maxAge)
    }

    func open(_ configuration: Outbox.Configuration = OutboxFixture.quick()) async throws(SwitchyardError) -> Outbox {
        try await Outbox(file: file, client: client, configuration: configuration)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// An order on `queue`.
    static func order(_ name: String, queue: String = "orders", account: String? = nil) throws(SwitchyardError) -> OutboxCall {
        OutboxCall(.shop, .post, "/orders", body: try .json(["order": name]), queue: queue, tags: [RequestTag(name)], account: account)
    }

    /// The `order` of a request's JSON body.
    static func orderName(_ request: Request) -> String {
        let object = (try? JSONSerialization.jsonObject(with: request.body?.bytes ?? Data())) as? [String: String]
        return object?["order"] ?? "?"
    }
}

/// The token the fixture's stage sends; tests change it to show the stage runs at send time.
final class TokenBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = "first"
    var value: String {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A wall clock the test moves.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var date = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { date } }
    func advance(by seconds: TimeInterval) { lock.withLock { date += seconds } }
}

/// Whether the fixture's server is up.
final class Switch: @unchecked Sendable {
    private let lock = NSLock()
    private var on: Bool
    init(_ on: Bool) { self.on = on }
    var isOn: Bool {
        get { lock.withLock { on } }
        set { lock.withLock { on = newValue } }
    }
}

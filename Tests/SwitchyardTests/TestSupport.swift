import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Synchronization

extension ServiceID {
    static let users: ServiceID = "users"
    static let catalog: ServiceID = "catalog"
}

/// A registry that persists nothing, for tests.
func makeRegistry(environment: ServerEnvironment = .develop, release: Bool = false) -> ServiceRegistry {
    ServiceRegistry(configuration: .init(isReleaseBuild: release, defaultEnvironment: environment, store: nil))
}

/// A registry and client with one `users` service over `transport`.
func makeClient(
    baseURL: String = "https://api.example.com",
    stages: [any Stage] = [],
    defaults: ServiceDefaults = ServiceDefaults(),
    transport: any Transport
) throws -> APIClient {
    let registry = makeRegistry()
    try registry.register(Service(.users, baseURL: baseURL, defaults: defaults, stages: stages, transport: transport))
    return APIClient(registry: registry)
}

/// Echoes the request as a JSON response: method, target and body.
let echoTransport = MockTransport { request, _ in
    let object: [String: String] = [
        "method": request.method.rawValue,
        "target": request.path,
        "authority": request.head.authority ?? "",
        "body": request.bodyText ?? "",
        "contentType": request.headerFields[.contentType] ?? "",
    ]
    let data = try JSONEncoder().encode(object)
    return Response(status: .ok, headerFields: [.contentType: "application/json"], body: data)
}

struct Echo: Decodable, Sendable {
    let method: String
    let target: String
    let authority: String
    let body: String
    let contentType: String
}

struct User: Codable, Sendable, Equatable {
    let id: Int
    let name: String
}

struct GetUser: Endpoint {
    typealias Output = User
    let id: String
    var service: ServiceID { .users }
    var method: HTTPRequest.Method { .get }
    var path: String { "/users/{id}" }
    var pathParameters: [String: String] { ["id": id] }
}

/// A temporary directory removed when the value is deinitialised.
final class TemporaryDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A value behind a lock that escaping closures can share (a `Mutex` local cannot be captured by them).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { try body(&$0) }
    }
}

/// A transport that holds every call until `gate` is set (or the call is cancelled), then answers
/// 200 with `body` — so tests control what is in flight without relying on timing.
func gatedTransport(_ gate: Locked<Bool>, body: String = "{}") -> MockTransport {
    MockTransport { _, _ in
        while !gate.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(2)) }
        return Response(status: .ok, body: Data(body.utf8))
    }
}

import AsyncHTTPClient
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend

extension ServiceID {
    static let users = ServiceID("users")!
    static let catalog = ServiceID("catalog")!
    static let utility = ServiceID("utility")!
}

/// Starts a sample backend, registers its modules over the shared-client transport, runs `body`,
/// and always shuts the backend down.
func withBackend<Result: Sendable>(
    stages: [any Stage] = [],
    transport: AsyncHTTPClientTransport = AsyncHTTPClientTransport(),
    _ body: (SampleBackend, APIClient) async throws -> Result
) async throws -> Result {
    let backend = try await SampleBackend.start()
    do {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try registry.register(Service(.users, baseURL: backend.baseURL + "/users-api", stages: stages, transport: transport))
        try registry.register(Service(.catalog, baseURL: backend.baseURL + "/catalog-api", stages: stages, transport: transport))
        try registry.register(Service(.utility, baseURL: backend.baseURL, stages: stages, transport: transport))
        let result = try await body(backend, APIClient(registry: registry))
        try await backend.shutdown()
        return result
    } catch {
        try? await backend.shutdown()
        throw error
    }
}

/// What the backend's `/echo` route reports about a request.
struct EchoReport: Decodable, Sendable {
    let method: String
    let uri: String
    let path: String
    let query: String?
    let headers: [String: String]
    let body: String?
}

/// The `{"code","msg","data"}` envelope of the sample modules.
struct Envelope<Payload: Decodable & Sendable>: Decodable, Sendable {
    let code: Int
    let msg: String
    let data: Payload?
}

struct User: Decodable, Sendable {
    let id: Int
    let name: String
    let nickname: String?
}

import AsyncHTTPClient
import Foundation
import HTTPTypes
package import Switchyard
package import SwitchyardAsyncHTTPClient
package import SwitchyardSampleBackend

extension ServiceID {
    package static let users: ServiceID = "users"
    package static let catalog: ServiceID = "catalog"
    package static let utility: ServiceID = "utility"
}

/// Starts a sample backend, registers its modules over the shared-client transport, runs `body`,
/// and always shuts the backend down.
package func withBackend<Result: Sendable>(
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
package struct EchoReport: Decodable, Sendable {
    package let method: String
    package let uri: String
    package let path: String
    package let query: String?
    package let headers: [String: String]
    package let body: String?
}

/// The `{"code","msg","data"}` envelope of the sample modules.
package struct Envelope<Payload: Decodable & Sendable>: Decodable, Sendable {
    package let code: Int
    package let msg: String
    package let data: Payload?
}

package struct User: Decodable, Sendable {
    package let id: Int
    package let name: String
    package let nickname: String?
}

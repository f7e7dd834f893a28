import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Synchronization

/// What the replay tests share: a private temporary directory and a registry with one service over
/// a mock transport.
enum ReplayFixture {
    static let api: ServiceID = "api"

    /// A new, empty directory under the temporary directory; removed by `body`'s caller with
    /// ``remove(_:)``.
    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-replay-\(UUID().uuidString)")
    }

    static func remove(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }

    static func registry() -> ServiceRegistry {
        ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
    }

    /// A client for `api` whose pipeline is `stages`, turned by `adjust`, over `transport`.
    static func client(
        stages: [any Stage] = [],
        transport: any Transport,
        adjust: (Service) throws -> Service
    ) throws -> APIClient {
        let registry = registry()
        try registry.register(adjust(Service(api, baseURL: "https://api.test/v1", stages: stages, transport: transport)))
        return APIClient(registry: registry)
    }

    /// A transport that answers every request with a JSON object counting the requests so far and
    /// echoing the query, as `{"n":…,"query":"…"}`.
    static func countingTransport() -> MockTransport {
        let counter = Counter()
        return MockTransport { request, _ in
            let n = counter.next()
            let body = #"{"n":\#(n),"query":"\#(request.query ?? "")","session_token":"issued-secret-\#(n)"}"#
            return Response(status: .ok, headerFields: [.contentType: "application/json"], body: Data(body.utf8))
        }
    }

    /// The file a recorder wrote for `api`.
    static func file(in directory: URL, service: ServiceID = api) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(service.rawValue + ".json"), encoding: .utf8)
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

/// What the counting transport answers.
struct Counted: Decodable, Sendable, Equatable {
    let n: Int
    let query: String
}

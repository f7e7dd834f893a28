import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAppState
import SwitchyardTesting

/// A counter the backend returns: `n` is the number of the request that produced it.
struct Count: Codable, Sendable, Equatable {
    let n: Int
}

/// `GET /count`, under a cache policy when one is given.
struct GetCount: Endpoint {
    typealias Output = Count
    var policy: CachePolicy?
    var service: ServiceID { .users }
    var method: HTTPRequest.Method { .get }
    var path: String { "/count" }
    var options: CallOptions {
        var options = CallOptions()
        if let policy { options.cache(policy) }
        return options
    }
}

/// A backend answering `{"n": N}` to its N-th request, each request waiting at the gate of its
/// number (1-based) when there is one — so a test holds exactly the calls it wants in flight.
struct CountingBackend {
    let gates: [Gate]
    let transport: MockTransport

    init(gates: Int = 0, headerFields: HTTPFields = [:]) {
        let gates = (0..<gates).map { _ in Gate() }
        let count = Locked(0)
        self.gates = gates
        self.transport = MockTransport { _, _ in
            let n = count.withLock { count in
                count += 1
                return count
            }
            if n <= gates.count { try await gates[n - 1].pass() }
            var fields = headerFields
            fields[.contentType] = "application/json"
            return Response(status: .ok, headerFields: fields, body: Data(#"{"n":\#(n)}"#.utf8))
        }
    }

    /// A client over this backend, with a memory cache when `cached`.
    func client(cached: Bool = false) throws -> APIClient {
        try makeClient(stages: cached ? [CacheStage(cache: try ResponseCache())] : [], transport: transport)
    }
}

extension ResourceLoader where Output == Count {
    /// `phase`, then the value and its source when there is one: `loading 1@memory`.
    var summary: String {
        guard let value else { return "\(phase) -" }
        return "\(phase) \(value.n)@\(source?.description ?? "?")"
    }
}

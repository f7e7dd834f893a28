import Foundation
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardChannels
import SwitchyardTestSupport
import Testing

extension ServiceID {
    static let live = ServiceID("live")
}

/// The Python `websockets` servers the channel tests run against, started once for the test process
/// on free loopback ports (`Tests/Channels/ws_server.py`, and `Tests/Channels/sealed_peer.py` with the
/// key ring below) and stopped when it ends.
enum ChannelServers {
    /// The sealed peer's key: `k1` → bytes 00…1f, as in `Docs/WireFormat.md`'s vectors.
    static let keyID = "k1"
    static let key = Data(0..<32)

    /// Whether the suites run: python3 imports `websockets` (and `cryptography`), or CI requires them.
    static let enabled: Bool = {
        if ProcessInfo.processInfo.environment["SWITCHYARD_REQUIRE_REAL_SERVERS"] == "1" { return true }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import websockets, cryptography"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            FileHandle.standardError.write(Data("\n*** CHANNEL SUITES SKIPPED: pip install websockets cryptography ***\n\n".utf8))
        }
        return process.terminationStatus == 0
    }()

    static let plain: Result<Int, PythonSupervisor.Unavailable> = launch("Channels/ws_server.py")
    static let sealed: Result<Int, PythonSupervisor.Unavailable> = launch(
        "Channels/sealed_peer.py",
        arguments: [keyID, key.map { String(format: "%02x", $0) }.joined()]
    )

    private static func launch(_ path: String, arguments: [String] = []) -> Result<Int, PythonSupervisor.Unavailable> {
        PythonSupervisor.launch(path, arguments: arguments).flatMap { line in
            struct Ready: Decodable { let port: Int }
            guard let ready = try? JSONDecoder().decode(Ready.self, from: line) else {
                return .failure(.init(description: "\(path) printed \(String(decoding: line, as: UTF8.self))"))
            }
            return .success(ready.port)
        }
    }

    /// The plain server's base URL.
    static func plainURL() async throws -> String {
        "http://127.0.0.1:\(try await offThePool { try plain.get() })"
    }

    /// The sealed peer's base URL.
    static func sealedURL() async throws -> String {
        "http://127.0.0.1:\(try await offThePool { try sealed.get() })"
    }

    /// A client whose service `live` has `stages` over `transport` (a plain AsyncHTTPClient transport
    /// unless given).
    static func client(
        _ baseURL: String,
        stages: [any Stage] = [],
        transport: any Transport = AsyncHTTPClientTransport()
    ) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try registry.register(Service(.live, baseURL: baseURL, stages: stages, transport: transport))
        return APIClient(registry: registry)
    }
}

/// A channel endpoint of the test service: `path` with `id` in the query, for the server's records.
func endpoint(_ path: String, id: String = UUID().uuidString, query: [String: String] = [:]) -> DynamicEndpoint<NoContent> {
    var parameters: Parameters = ["id": .string(id)]
    for (name, value) in query { parameters[name] = .string(value) }
    return DynamicEndpoint<NoContent>(
        service: .live,
        method: .get,
        path: path,
        parameters: parameters,
        encoding: .query,
        as: NoContent.self
    )
}

/// What `/report` says about the connections of one id.
struct Report: Decodable {
    let connections: Int?
    let refused: Int?
    let close_code: Int?
    let closed_at: Double?
}

/// The server's record for `id`, read over a channel of its own.
func report(_ id: String, client: APIClient) async throws -> Report {
    let channel = try await client.channel(endpoint("/report", id: id))
    var messages = channel.messages.makeAsyncIterator()
    let message = try await messages.next()
    await channel.close()
    return try #require(message).decode(Report.self)
}

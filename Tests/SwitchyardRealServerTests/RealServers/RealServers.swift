import Foundation
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardTestSupport
import SwitchyardURLSession

/// nginx, httpbin (under gunicorn), a Server-Sent Events feed (sse-starlette under uvicorn,
/// `Tests/RealServers/sse_app.py`) and a connection-breaking proxy, started once for the test
/// process by `Tests/RealServers/serve.py` on free loopback ports, and stopped (by pid) when the
/// process ends and closes the supervisor's standard input.
///
/// When nginx, gunicorn or httpbin is missing the suite is skipped with a loud message — unless
/// `SWITCHYARD_REQUIRE_REAL_SERVERS=1` (CI sets it), which turns the skip into a failure.
struct RealServers: Sendable {
    let nginx: String
    let httpbin: String
    let breaking: String
    /// The Server-Sent Events feed: `/feed/{name}?total=&per=&drop=abort|close`, `/log/{name}`.
    let sse: String
    let breakAfter: Int
    let blobSHA256: String
    let blobSize: Int
    let assetSHA256: String
    let assetSize: Int
    let assetGzipSize: Int

    /// The running servers, or why there are none.
    static let shared: Result<RealServers, Unavailable> = start()

    /// The servers, when they run.
    static var running: RealServers? { try? shared.get() }

    /// Whether the suite runs: nginx and gunicorn are installed, or CI requires the servers (and a
    /// test then fails when they cannot start). Decided without starting anything.
    static let enabled: Bool = {
        if ProcessInfo.processInfo.environment["SWITCHYARD_REQUIRE_REAL_SERVERS"] == "1" { return true }
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin"]
        let missing = ["nginx", "gunicorn"].filter { tool in
            !path.contains { FileManager.default.isExecutableFile(atPath: $0 + "/" + tool) }
        }
        guard missing.isEmpty else {
            FileHandle.standardError.write(
                Data(
                    "\n*** REAL-SERVER SUITE SKIPPED: \(missing.joined(separator: ", ")) not installed (apt-get install nginx; pip install httpbin gunicorn) ***\n\n"
                        .utf8
                )
            )
            return false
        }
        return true
    }()

    /// The servers, started on first use on a thread of their own — starting them blocks for a few
    /// seconds, which must not hold up the threads every other test's tasks run on.
    static func require() async throws -> RealServers {
        try await offThePool { try shared.get() }
    }

    typealias Unavailable = PythonSupervisor.Unavailable

    private static func start() -> Result<RealServers, Unavailable> {
        let line: Data
        switch PythonSupervisor.launch("RealServers/serve.py") {
        case .success(let ready): line = ready
        case .failure(let reason): return .failure(reason)
        }
        struct Info: Decodable {
            let missing: [String]?
            let nginx, httpbin, breaking, sse: String?
            let breakAfter, blobSize, assetSize, assetGzipSize: Int?
            let blobSHA256, assetSHA256: String?
        }
        guard let info = try? JSONDecoder().decode(Info.self, from: line) else {
            return .failure(Unavailable(description: "the server supervisor failed: \(String(decoding: line, as: UTF8.self))"))
        }
        if let missing = info.missing {
            return .failure(
                Unavailable(
                    description: "\(missing.joined(separator: ", ")) not installed "
                        + "(apt-get install nginx; pip install httpbin gunicorn uvicorn sse-starlette)"
                )
            )
        }
        guard let nginx = info.nginx, let httpbin = info.httpbin, let breaking = info.breaking, let sse = info.sse,
            let breakAfter = info.breakAfter,
            let blobSize = info.blobSize, let blobSHA256 = info.blobSHA256, let assetSHA256 = info.assetSHA256,
            let assetSize = info.assetSize, let assetGzipSize = info.assetGzipSize
        else {
            return .failure(Unavailable(description: "the server supervisor's answer is incomplete"))
        }
        return .success(
            RealServers(
                nginx: nginx,
                httpbin: httpbin,
                breaking: breaking,
                sse: sse,
                breakAfter: breakAfter,
                blobSHA256: blobSHA256,
                blobSize: blobSize,
                assetSHA256: assetSHA256,
                assetSize: assetSize,
                assetGzipSize: assetGzipSize
            )
        )
    }

    /// The two transports, by name, for parameterised tests.
    static let transports = ["AsyncHTTPClient", "URLSession"]

    /// A transport by name.
    static func transport(_ name: String) -> any Transport {
        name == "URLSession" ? URLSessionTransport() : AsyncHTTPClientTransport()
    }

    /// A client with one service, `.utility`, at `baseURL` over the named transport.
    static func client(
        _ baseURL: String,
        transport name: String,
        stages: [any Stage] = [],
        defaults: ServiceDefaults = ServiceDefaults(),
        userAgent: UserAgent? = .default
    ) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try registry.register(Service(.utility, baseURL: baseURL, defaults: defaults, stages: stages, transport: transport(name)))
        return APIClient(registry: registry, userAgent: userAgent)
    }
}

import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Switchyard
import SwitchyardInspector
import SwitchyardTesting

/// Starts inspectors for the tests and talks to them over real loopback HTTP.
enum InspectorHarness {
    static let service: ServiceID = "inspected"

    static func registry(isReleaseBuild: Bool = false) -> ServiceRegistry {
        ServiceRegistry(configuration: .init(isReleaseBuild: isReleaseBuild, defaultEnvironment: .develop, store: nil))
    }

    /// An inspector, and a client whose service records into it, traced with bodies (the most a trace
    /// holds), its transport answering `answer`.
    static func start(
        options: Inspector.Options = Inspector.Options(),
        answer: MockResponse = .json(#"{"ok":true}"#)
    ) async throws -> (Inspector, APIClient) {
        let registry = registry()
        let inspector = try await Inspector.start(registry: registry, options: options)
        try registry.register(
            Service(
                service,
                baseURLs: [.develop: "https://api.example.com"],
                defaults: ServiceDefaults(trace: .bodies),
                stages: [inspector.recordingStage, HeadersStage([.fixed(HTTPField.Name("X-Added")!, "by-a-stage")])],
                transport: MockTransport(answer)
            )
        )
        return (inspector, APIClient(registry: registry))
    }

    /// `url` with its first path segment (the token) replaced by `segment`, and `suffix` appended.
    static func url(_ inspector: Inspector, token segment: String? = nil, _ suffix: String = "") -> String {
        var text = inspector.url.absoluteString
        if let segment {
            let token = inspector.url.pathComponents[1]
            text = text.replacingOccurrences(of: "/\(token)/", with: segment.isEmpty ? "/" : "/\(segment)/")
        }
        return text + suffix
    }

    /// One request's status, headers and whole body.
    static func fetch(_ url: String, method: HTTPMethod = .GET) async throws -> (status: Int, headers: HTTPHeaders, body: String) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 4 << 20)
        return (Int(response.status.code), response.headers, String(buffer: body))
    }

    /// The Server-Sent Events of the inspector's event stream, parsed by the library's own parser.
    static func events(
        _ inspector: Inspector
    ) async throws -> (status: Int, events: DecodedStream<AsyncMapSequence<HTTPClientResponse.Body, Data>, ServerSentEvent>) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url(inspector, "events")), timeout: .seconds(30))
        let chunks = response.body.map { Data($0.readableBytesView) }
        return (Int(response.status.code), chunks.serverSentEvents())
    }
}

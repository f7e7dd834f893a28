import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

private let lastEventID = HTTPField.Name("Last-Event-ID")!

/// An event stream of `text` that breaks after it, as a dropped connection does.
private func dropping(_ text: String, context: CallContext) -> Response {
    let head = HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"])
    let bytes = Data(text.utf8)
    let stream = ResponseStream(control: context.control, bufferLimit: context.streamBufferLimit ?? 1 << 16) { writer in
        try await writer.write(bytes)
        throw SwitchyardError(code: .transport, message: "the connection was reset")
    }
    return Response(head: head, body: .stream(stream))
}

/// Answers the service's n-th call (`https://api.example.com/feed`) with `script[n]`, given the
/// call's context, and `204` past its end; any other origin with `foreign`.
private func scripted(
    _ script: [@Sendable (CallContext) -> Response],
    foreign: @escaping @Sendable (CallContext) -> Response = { _ in Response(status: .notFound) }
) -> MockTransport {
    let served = Locked(0)
    return MockTransport { request, context in
        guard request.head.authority == "api.example.com" else { return foreign(context) }
        let index = served.withLock {
            $0 += 1
            return $0 - 1
        }
        return index < script.count ? script[index](context) : Response(status: .noContent)
    }
}

private let feed = DynamicEndpoint<ResponseStream>(service: .users, method: .get, path: "/feed")

/// Reads every event, reconnecting without waiting, and returns the `Last-Event-ID` each of the
/// service's calls carried.
private func reconnections(over transport: MockTransport) async throws -> [String?] {
    let client = try makeClient(
        defaults: ServiceDefaults(redirects: RedirectPolicy(crossOrigin: .followWithoutCredentials)),
        transport: transport
    )
    let policy = RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(1), maxDelay: .milliseconds(1), jitter: 0)
    let events = try await client.events(feed, reconnect: policy, sleep: { _ in })
    for try await _ in events.value {}
    return transport.requests.filter { $0.head.authority == "api.example.com" }.map { $0.headerFields[lastEventID] }
}

@Suite("Event streams: only the service's own origin chooses Last-Event-ID, and only a short one")
struct LastEventIDOriginTests {
    @Test("an ID set by a foreign origin a redirect reached is never sent back; the service's last one is")
    func foreignOriginDoesNotChoose() async throws {
        let transport = scripted(
            [
                { dropping("id: 1\ndata: a\n\n", context: $0) },
                { _ in Response(status: .found, headerFields: [.location: "https://cdn.test/feed"]) },
            ],
            foreign: { dropping("id: chosen-by-cdn\ndata: b\n\n", context: $0) }
        )
        let sent = try await reconnections(over: transport)
        #expect(sent == [nil, "1", "1"])
        #expect(transport.requests.contains { $0.head.authority == "cdn.test" })
    }

    @Test("a redirect that stays on the service's origin still sets the ID")
    func sameOriginRedirectChooses() async throws {
        let transport = scripted([
            { dropping("id: 1\ndata: a\n\n", context: $0) },
            { _ in Response(status: .found, headerFields: [.location: "/feed-moved"]) },
            { dropping("id: 2\ndata: b\n\n", context: $0) },
        ])
        // The redirected hop carries the call's fields, its Last-Event-ID among them.
        #expect(try await reconnections(over: transport) == [nil, "1", "1", "2"])
    }

    @Test("an ID longer than 1 KiB is not kept: the last one that fit is sent; one of exactly 1 KiB is")
    func lengthIsBounded() async throws {
        let long = String(repeating: "x", count: 1025)
        let fits = String(repeating: "y", count: 1024)
        let transport = scripted([
            { dropping("id: 1\ndata: a\n\nid: \(long)\ndata: b\n\n", context: $0) },
            { dropping("id: \(fits)\ndata: c\n\n", context: $0) },
        ])
        #expect(try await reconnections(over: transport) == [nil, "1", fits])
    }
}

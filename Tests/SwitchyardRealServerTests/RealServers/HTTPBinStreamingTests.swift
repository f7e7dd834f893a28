import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestSupport
import Testing

/// One line of httpbin's `/stream/{n}`.
private struct StreamLine: Decodable {
    let id: Int
    let url: String
}

private func streamed(_ path: String, tags: Set<RequestTag> = []) -> DynamicEndpoint<ResponseStream> {
    DynamicEndpoint<ResponseStream>(service: .utility, method: .get, path: path, options: CallOptions(tags: tags))
}

@Suite(
    "httpbin (PyPI, under gunicorn): streamed answers as they arrive — /stream JSON lines, /drip slow bytes, cancellation, on both transports",
    .enabled(if: RealServers.enabled, "nginx, gunicorn and httpbin are needed: apt-get install nginx; pip install httpbin gunicorn"),
    .timeLimit(.minutes(2))
)
struct HTTPBinStreamingTests {
    @Test("/stream/20 arrives as 20 JSON lines, in order", arguments: RealServers.transports)
    func jsonLines(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.httpbin, transport: transport)
        var body = Data()
        for try await chunk in try await client.send(streamed("/stream/20")).value { body.append(chunk) }
        let lines = body.split(separator: UInt8(ascii: "\n"))
        let ids = try lines.map { try JSONDecoder().decode(StreamLine.self, from: Data($0)).id }
        #expect(ids == Array(0..<20))
    }

    @Test("/stream/5 decodes as JSON Lines while it arrives", arguments: RealServers.transports)
    func decodedJSONLines(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.httpbin, transport: transport)
        var ids: [Int] = []
        for try await line in try await client.send(streamed("/stream/5")).value.jsonLines(of: StreamLine.self) { ids.append(line.id) }
        #expect(ids == Array(0..<5))
    }

    // httpbin sends one byte a second for 20 seconds. Two chunks read before the 20th byte prove the
    // bytes are handed over as they arrive, not as one body at the end. Under load the socket may hold
    // a few bytes by the time they are read, so the test counts neither chunk sizes nor timings:
    // only a stall of most of the 20 seconds could merge them all.
    @Test("/drip's bytes come as they are sent, in several chunks, not as one body at the end", arguments: RealServers.transports)
    func dripArrivesInPieces(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.httpbin, transport: transport)
        var chunks = 0
        var bytes = 0
        for try await chunk in try await client.send(streamed("/drip?numbytes=20&duration=20&delay=0")).value {
            chunks += 1
            bytes += chunk.count
            if chunks == 2 { break }
        }
        #expect(chunks == 2)
        #expect(bytes < 20, "the first two chunks held \(bytes) of the 20 bytes")
        // Leaving the loop early frees the connection for the next call.
        #expect(try await client.send(.utility, .get, "/get").status == .ok)
    }

    @Test("cancelling a call by id mid-stream ends the stream with .cancelled", arguments: RealServers.transports)
    func cancelMidStream(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.httpbin, transport: transport)
        let result = try await client.send(streamed("/drip?numbytes=40&duration=40&delay=0"))
        var iterator = result.value.makeAsyncIterator()
        #expect(try await iterator.next() != nil)
        #expect(client.cancel(.id(result.requestID)) == [result.requestID])
        let error = await #expect(throws: SwitchyardError.self) { _ = try await iterator.next() }
        #expect(error?.code == .cancelled)
        // The connection is free for the next call at once.
        #expect(try await client.send(.utility, .get, "/get").status == .ok)
    }

    @Test("a refused status on a streamed call is httpStatus with the server's body", arguments: RealServers.transports)
    func refusedStatus(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.httpbin, transport: transport)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(streamed("/status/418")) }
        #expect(error?.code == .httpStatus)
        #expect(error?.response?.bodyText.contains("teapot") == true)
    }
}

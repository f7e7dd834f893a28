import Foundation
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend
import Testing

/// A streamed answer whose connection the server breaks off: every byte read before the break
/// reaches the stream, then a typed error — run many times, since what the client holds when the
/// break arrives depends on timing.
@Suite("AsyncHTTPClient transport: a broken stream delivers every byte before its error")
struct StreamBreakTests {
    static let service: ServiceID = "stream"

    /// The body of a streamed `GET /files/blob/{size}?dropAt={sent}` (the server sends `sent` bytes,
    /// then closes the connection), read once `ready` says so, and the error it ended with.
    static func read(
        _ transport: AsyncHTTPClientTransport,
        _ backend: SampleBackend,
        sent: Int,
        bufferLimit: Int,
        ready: @Sendable () async throws -> Void = {}
    ) async throws -> (body: Data, ending: SwitchyardError?) {
        // A generous limit: the assertion is on the bytes, and a loaded machine can stall a head for seconds.
        var context = CallContext(serviceID: service, timeout: .seconds(120))
        context.streamBufferLimit = bufferLimit
        let request = try #require(Request(method: .get, url: URL(string: backend.baseURL + "/files/blob/\(4 << 20)?dropAt=\(sent)")!))
        let response = try await transport.send(request, context: context)
        let stream = try #require(response.body.stream)
        try await ready()
        var body = Data(capacity: sent)
        do throws(SwitchyardError) {
            for try await chunk in stream { body.append(chunk) }
        } catch {
            return (body, error)
        }
        return (body, nil)
    }

    @Test("a consumer that keeps reading gets all N bytes, then a transport error (40 runs)")
    func readingConsumer() async throws {
        let backend = try await SampleBackend.start()
        let transport = AsyncHTTPClientTransport()
        for run in 0..<40 {
            let sent = [300_000, 262_145, 1_000_003, 65_537][run % 4]
            let (body, ending) = try await Self.read(transport, backend, sent: sent, bufferLimit: 2 << 20)
            #expect(ending?.code == .transport, "run \(run): \(ending.map { "\($0.code): \($0.message)" } ?? "no error")")
            #expect(body.count == sent, "run \(run): \(body.count) of the \(sent) bytes sent before the break")
            #expect(body == SampleBlob.bytes(0..<Int64(body.count)))
        }
        try await backend.shutdown()
    }

    @Test("a consumer that starts reading after the break gets all N bytes its buffer had room for (20 runs)")
    func consumerAfterTheBreak() async throws {
        let backend = try await SampleBackend.start()
        let transport = AsyncHTTPClientTransport()
        for run in 0..<20 {
            let sent = 300_000
            let (body, ending) = try await Self.read(transport, backend, sent: sent, bufferLimit: 1 << 20) {
                // Long after the server has sent the bytes and broken the connection off.
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(ending?.code == .transport, "run \(run): \(ending.map { "\($0.code): \($0.message)" } ?? "no error")")
            #expect(body.count == sent, "run \(run): \(body.count) of the \(sent) bytes sent before the break")
            #expect(body == SampleBlob.bytes(0..<Int64(body.count)))
        }
        try await backend.shutdown()
    }
}

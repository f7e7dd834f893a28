import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Messages: one body value each way, and the whole-bytes helper")
struct MessageBodyTests {
    private let stage: StageID = "Sealer"

    /// A request holds at most one body: the API offers one optional `Request.Body` whose cases are
    /// bytes or a stream, so a request with both cannot be written.
    @Test("a request carries one body: bytes or a stream, never both")
    func requestHasOneBody() throws {
        var request = try Request.fixture(.post, "https://api.test/upload")
        #expect(request.body == nil && !request.hasBody)
        request.body = .bytes(Data("abc".utf8))
        #expect(request.body?.bytes == Data("abc".utf8) && request.body?.stream == nil)
        request.body = .stream(StreamedBody(segments: [.bytes(Data("streamed".utf8))]))
        #expect(request.body?.bytes == nil && request.body?.stream?.length == 8)
        #expect(request.bodyText == nil)
    }

    @Test("a response carries one body: bytes or a downloaded file, never both")
    func responseHasOneBody() {
        var response = Response(status: .ok, body: Data("xyz".utf8))
        #expect(response.body.bytes == Data("xyz".utf8) && response.body.file == nil && response.body.count == 3)
        let file = DownloadedFile(url: URL(fileURLWithPath: "/tmp/f.partial"), byteCount: 42)
        response.body = .file(file)
        #expect(response.body.bytes == nil && response.body.file == file && response.body.count == 42)
        #expect(response.bytes.isEmpty)
    }

    @Test("the bytes helper returns in-memory request bytes and nil for no body")
    func requestBytesHelper() throws {
        var request = try Request.fixture(.post, "https://api.test/x")
        #expect(try request.bodyBytes(for: stage) == nil)
        request.body = .bytes(Data("{}".utf8))
        #expect(try request.bodyBytes(for: stage) == Data("{}".utf8))
    }

    @Test("the bytes helper refuses a streamed request body with unsupportedBody naming the stage")
    func requestBytesHelperRefusesStream() throws {
        var request = try Request.fixture(.post, "https://api.test/x")
        request.body = .stream(StreamedBody(segments: [.bytes(Data(count: 10))]))
        let error = #expect(throws: SwitchyardError.self) { _ = try request.bodyBytes(for: stage) }
        #expect(error?.code == .unsupportedBody)
        #expect(error?.stage == stage)
        #expect(error?.message.contains("streamed") == true)
    }

    @Test("the bytes helper refuses a response written to a file with unsupportedBody naming the stage")
    func responseBytesHelperRefusesFile() {
        let response = Response(
            head: HTTPResponse(status: .ok),
            body: .file(DownloadedFile(url: URL(fileURLWithPath: "/tmp/g.partial"), byteCount: 7))
        )
        let error = #expect(throws: SwitchyardError.self) { _ = try response.bodyBytes(for: stage) }
        #expect(error?.code == .unsupportedBody)
        #expect(error?.stage == stage)
        #expect(throws: Never.self) { _ = try Response(status: .ok, body: Data("ok".utf8)).bodyBytes(for: stage) }
    }
}

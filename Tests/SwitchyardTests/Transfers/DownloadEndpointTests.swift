import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Download endpoints: endpoint.downloading(to:) through send, start and the completion form", .timeLimit(.minutes(1)))
struct DownloadEndpointTests {
    /// An endpoint with a name, options and header fields of its own.
    struct GetReport: Endpoint {
        typealias Output = User
        var service: ServiceID { .users }
        var method: HTTPRequest.Method { .get }
        var path: String { "/reports/{id}" }
        var pathParameters: [String: String] { ["id": "9"] }
        var headerFields: HTTPFields { [HTTPField.Name("X-Report")!: "yearly"] }
        var name: String { "report" }
        var options: CallOptions {
            var options = CallOptions(timeout: .seconds(5), tags: ["reports"])
            options.headerFields[HTTPField.Name("X-From-Options")!] = "yes"
            return options
        }
    }

    /// An endpoint whose output happens to be a ``DownloadedFile`` but which is no download.
    struct FileInfo: Endpoint {
        typealias Output = DownloadedFile
        var service: ServiceID { .users }
        var method: HTTPRequest.Method { .get }
        var path: String { "/info" }
        func decode(_ response: Response, decoder: JSONDecoder) throws -> DownloadedFile {
            DownloadedFile(url: URL(fileURLWithPath: "/info"), byteCount: Int64(response.bytes.count), resumedFrom: 0)
        }
    }

    @Test("downloading(to:) keeps every member of the base endpoint")
    func keepsTheBase() throws {
        let download = GetReport().downloading(to: URL(fileURLWithPath: "/tmp/report.json"), options: DownloadOptions(maximumResumes: 1))
        #expect(download.name == "report" && download.service == .users && download.method == .get)
        #expect(download.path == "/reports/{id}" && download.pathParameters == ["id": "9"])
        #expect(download.headerFields[HTTPField.Name("X-Report")!] == "yearly")
        #expect(download.options.timeout == .seconds(5) && download.options.tags == ["reports"])
        #expect(download.acceptedMediaType == GetReport().acceptedMediaType)
    }

    @Test("a download of an endpoint with options sends them, under the endpoint's name")
    func sendsTheBaseOptions() async throws {
        let directory = try TemporaryDirectory()
        let transport = MockTransport(.status(.ok, body: "report"))
        let client = try makeClient(transport: transport)
        let destination = directory.url.appendingPathComponent("report.json")
        let result = try await client.send(GetReport().downloading(to: destination))
        #expect(try String(contentsOf: destination, encoding: .utf8) == "report")
        #expect(result.value.url == destination && result.value.byteCount == 6)
        #expect(result.endpointName == "report" && result.tags == ["reports"])
        let request = try #require(transport.requests.first)
        #expect(request.path == "/reports/9")
        #expect(request.headerFields[HTTPField.Name("X-From-Options")!] == "yes")
        #expect(request.headerFields[.acceptEncoding] == "identity")
        #expect(transport.contexts.first?.downloadTarget != nil)
    }

    @Test("a reformed endpoint downloaded keeps the base endpoint's name and options")
    func reformedDownload() async throws {
        let directory = try TemporaryDirectory()
        let transport = MockTransport(.status(.ok, body: #"{"id":1,"name":"Ada"}"#))
        let client = try makeClient(transport: transport)
        let destination = directory.url.appendingPathComponent("user.json")
        let endpoint = GetReport().reformed(by: DecodableReformer<User>().map(\.name)).downloading(to: destination)
        #expect(endpoint.name == "report" && endpoint.options.tags == ["reports"])
        let result = try await client.send(endpoint)
        #expect(result.value.byteCount == 21 && result.endpointName == "report")
        #expect(transport.requests.first?.headerFields[HTTPField.Name("X-From-Options")!] == "yes")
    }

    @Test("every attempt of a download goes under the call's one id")
    func oneIDAcrossResumes() async throws {
        let directory = try TemporaryDirectory()
        let attempts = Locked(0)
        let transport = MockTransport { _, context in
            let target = try #require(context.downloadTarget)
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            if attempt == 1 {
                let head = DownloadTests.head(200, [("Content-Length", "10"), ("ETag", "\"v1\"")])
                let sink = try DownloadSink(target: target, head: head, progress: nil)
                try sink.write(Data("0123".utf8))
                throw SwitchyardError(code: .transport, message: "broken off after 4 bytes")
            }
            let head = DownloadTests.head(206, [("Content-Range", "bytes 4-9/10"), ("ETag", "\"v1\"")])
            let sink = try DownloadSink(target: target, head: head, progress: nil)
            try sink.write(Data("456789".utf8))
            return Response(head: head, body: .file(try sink.finish()))
        }
        let client = try makeClient(transport: transport)
        let destination = directory.url.appendingPathComponent("digits.txt")
        let result = try await client.send(
            DynamicEndpoint<Response>(service: .users, method: .get, path: "/digits").downloading(to: destination)
        )
        #expect(try String(contentsOf: destination, encoding: .utf8) == "0123456789")
        #expect(result.value.resumes == 1 && result.status.code == 206)
        #expect(transport.contexts.count == 2)
        #expect(transport.contexts.allSatisfy { $0.requestID == result.requestID })
    }

    @Test("a started download is cancelled through its handle; the partial file stays for a later call")
    func cancelThroughHandle() async throws {
        let directory = try TemporaryDirectory()
        let gate = Gate()
        let transport = MockTransport { _, context in
            let head = DownloadTests.head(200, [("Content-Length", "10"), ("ETag", "\"v1\"")])
            let sink = try DownloadSink(target: try #require(context.downloadTarget), head: head, progress: context.reportReceived)
            try sink.write(Data("0123".utf8))
            try await gate.pass()  // never opened: held until cancelled
            try sink.write(Data("456789".utf8))
            return Response(head: head, body: .file(try sink.finish()))
        }
        let client = try makeClient(transport: transport)
        let destination = directory.url.appendingPathComponent("digits.txt")
        let handle = client.start(DynamicEndpoint<Response>(service: .users, method: .get, path: "/digits").downloading(to: destination))
        await gate.arrivals(1)
        #expect(handle.currentProgress.download?.completed == 4)
        handle.cancel()
        let error = try #require(await handle.result.error)
        #expect(error.code == .cancelled && error.requestID == handle.id)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(FileManager.default.fileExists(atPath: destination.path + ".partial"))
        #expect(client.callsInFlight.isEmpty)
    }

    @Test("a download's failure reaches the completion block once, on the chosen queue")
    func failureThroughCompletion() async throws {
        let directory = try TemporaryDirectory()
        let client = try makeClient(transport: MockTransport(.status(.notFound, body: "gone")))
        let queue = DispatchQueue(label: "download-completions")
        let destination = directory.url.appendingPathComponent("gone.bin")
        let outcome = await withCheckedContinuation { continuation in
            client.send(DynamicEndpoint<Response>(service: .users, method: .get, path: "/gone").downloading(to: destination), queue: queue)
            {
                result in
                dispatchPrecondition(condition: .onQueue(queue))
                continuation.resume(returning: result)
            }
        }
        #expect(outcome.error?.code == .httpStatus && outcome.error?.status?.code == 404)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test("an endpoint whose output is a DownloadedFile but is no download endpoint is an ordinary call")
    func ordinaryFileOutput() async throws {
        let transport = MockTransport(.status(.ok, body: "abc"))
        let result = try await makeClient(transport: transport).send(FileInfo())
        #expect(result.value.byteCount == 3 && result.value.url.path == "/info")
        #expect(transport.contexts.first?.downloadTarget == nil)
    }

    @Test("a download refuses a body in memory with the same error as before it was a reformed endpoint: code, message, no stage")
    func misusedBodyKeepsItsError() throws {
        let download: ReformedEndpoint<GetReport, DownloadReformer> = GetReport().downloading(to: URL(fileURLWithPath: "/tmp/report.json"))
        let error = try #require(throws: SwitchyardError.self) {
            _ = try download.decode(Response(status: .ok, body: Data("{}".utf8)), decoder: JSONDecoder())
        }
        #expect(error.code == .unsupportedBody)
        #expect(error.message == "the response body of 'report' is not a downloaded file; send the download endpoint itself")
        #expect(error.stage == nil)
    }

    @Test("an endpoint that decodes through a download but is sent as an ordinary call fails with the download's error")
    func misusedThroughTheClient() async throws {
        /// Decodes with a download's reformer without being the download: the client cannot see the download.
        struct Misused: Endpoint {
            typealias Output = DownloadedFile
            let download = GetReport().downloading(to: URL(fileURLWithPath: "/tmp/report.json"))
            var service: ServiceID { .users }
            var method: HTTPRequest.Method { .get }
            var path: String { "/reports/9" }
            func decode(_ response: Response, decoder: JSONDecoder) throws -> DownloadedFile {
                try download.decode(response, decoder: decoder)
            }
        }
        let transport = MockTransport(.status(.ok, body: "report"))
        let client = try makeClient(transport: transport)
        let error = try #require(await client.start(Misused()).result.error)
        #expect(error.code == .unsupportedBody && error.stage == nil && error.status == .ok)
        #expect(error.message == "the response body of 'report' is not a downloaded file; send the download endpoint itself")
        #expect(transport.contexts.first?.downloadTarget == nil)
    }

    @Test("a download reformed afterwards is the base endpoint's call reformed in memory: the outermost reformer decides, no file")
    func reformerOverADownload() async throws {
        let directory = try TemporaryDirectory()
        let transport = MockTransport(.status(.ok, body: #"{"id":1,"name":"Ada"}"#))
        let client = try makeClient(transport: transport)
        let destination = directory.url.appendingPathComponent("user.json")
        let endpoint = GetReport().downloading(to: destination).reformed(by: DecodableReformer<User>().map(\.name))
        let result = try await client.send(endpoint)
        #expect(result.value == "Ada" && result.endpointName == "report")
        #expect(transport.contexts.first?.downloadTarget == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test("a download endpoint's output is only ever a downloaded file: a body in memory is refused")
    func refusesABodyInMemory() throws {
        let download = GetReport().downloading(to: URL(fileURLWithPath: "/tmp/report.json"))
        #expect {
            _ = try download.decode(Response(status: .ok, body: Data("{}".utf8)), decoder: JSONDecoder())
        } throws: { ($0 as? SwitchyardError)?.code == .unsupportedBody }
    }
}

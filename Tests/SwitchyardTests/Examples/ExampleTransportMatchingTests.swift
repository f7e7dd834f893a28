import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// `ExampleTransport`'s path templates: placeholders between literal pieces of a segment match in
/// time linear in the path, and a call that is cancelled or past its deadline is not answered.
@Suite("Example transport: matching")
struct ExampleTransportMatchingTests {
    static func operation(_ path: String) -> ExampleTransport.Operation {
        .init(.get, path, examples: [Response(status: .ok, headerFields: [.contentType: "text/plain"], body: Data(path.utf8))])
    }

    /// A request for `path` sent straight to `transport` in `context`.
    static func send(
        _ transport: ExampleTransport,
        _ path: String,
        context: CallContext = CallContext(serviceID: .users)
    )
        async throws -> Response
    {
        let request = try #require(Request(method: .get, url: URL(string: "https://api.example.com" + path)!))
        return try await transport.send(request, context: context)
    }

    @Test(
        "placeholders between literal pieces of a segment each take at least one character",
        arguments: [
            ("/files/{name}.{ext}", "/files/a.b.c", true),
            ("/files/{name}.{ext}", "/files/archive.tar.gz", true),
            ("/files/{name}.{ext}", "/files/.json", false),
            ("/files/{name}.{ext}", "/files/json.", false),
            ("/files/{name}.{ext}", "/files/nodot", false),
            ("/v{major}.{minor}/items", "/v1.2/items", true),
            ("/v{major}.{minor}/items", "/v.2/items", false),
            ("/{a}{b}", "/xy", true),
            ("/{a}{b}", "/x", false),
            ("/{a}-{b}-{c}.json", "/1-2-3-4.json", true),
            ("/{a}-{b}-{c}.json", "/1-2.json", false),
            ("/report-{year}", "/report-", false),
            ("/report-{year}", "/report-2026", true),
            ("/{id}/x", "/aa/x", true),
        ]
    )
    func piecesAndPlaceholders(template: String, path: String, matches: Bool) async throws {
        let transport = ExampleTransport([Self.operation(template)])
        do {
            _ = try await Self.send(transport, path)
            #expect(matches, "\(template) matched \(path)")
        } catch let error as SwitchyardError {
            #expect(!matches, "\(template) did not match \(path): \(error.message)")
            #expect(error.code == .noExample)
        }
    }

    @Test("a segment that six placeholders cannot match is refused at once, not after backtracking through every split")
    func unmatchedSegmentInLinearTime() async throws {
        let transport = ExampleTransport([Self.operation("/{a}-{b}-{c}-{d}-{e}-{f}.json")])
        // 40 separators and no `.json`: each of the 3.8 million ways of placing the five inner `-`
        // pieces fails (15 s in a debug build by trying them all).
        let path = "/" + Array(repeating: "x", count: 41).joined(separator: "-")
        let started = ContinuousClock.now
        let error = await #expect(throws: SwitchyardError.self) { try await Self.send(transport, path) }
        #expect(error?.code == .noExample)
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test("a call past its deadline is refused with timeout, not answered")
    func pastDeadline() async throws {
        var context = CallContext(serviceID: .users)
        context.deadline = ContinuousClock.now - .seconds(1)
        let error = await #expect(throws: SwitchyardError.self) {
            try await Self.send(ExampleTransport([Self.operation("/items")]), "/items", context: context)
        }
        #expect(error?.code == .timeout)
    }

    @Test("a cancelled call is refused with cancelled, not answered")
    func cancelledCall() async throws {
        let context = CallContext(serviceID: .users)
        context.control.mark(.cancelled("the test cancelled it"))?.run()
        let error = await #expect(throws: SwitchyardError.self) {
            try await Self.send(ExampleTransport([Self.operation("/items")]), "/items", context: context)
        }
        #expect(error?.code == .cancelled)
    }
}

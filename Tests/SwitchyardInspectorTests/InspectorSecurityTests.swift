import Foundation
import Switchyard
import SwitchyardInspector
import Testing

@Suite("Inspector security")
struct InspectorSecurityTests {
    @Test("the page answers with its token")
    func pageWithToken() async throws {
        let (inspector, _) = try await InspectorHarness.start()
        let page = try await InspectorHarness.fetch(inspector.url.absoluteString)
        await inspector.stop()
        #expect(page.status == 200)
        #expect(page.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
        #expect(page.headers.first(name: "Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(page.body.contains("<title>Switchyard inspector</title>"))
    }

    @Test(
        "every route refuses a request without the token: 403, no body",
        arguments: ["", "events", "session.har", "inspector.js", "inspector.css", "rules.json"]
    )
    func refusedWithoutToken(route: String) async throws {
        let (inspector, _) = try await InspectorHarness.start()
        let token = inspector.url.pathComponents[1]
        var wrong = Array(token)
        wrong[wrong.count - 1] = wrong.last == "0" ? "1" : "0"
        let missing = try await InspectorHarness.fetch(InspectorHarness.url(inspector, token: "", route))
        let altered = try await InspectorHarness.fetch(InspectorHarness.url(inspector, token: String(wrong), route))
        let prefix = try await InspectorHarness.fetch(InspectorHarness.url(inspector, token: String(token.dropLast()), route))
        await inspector.stop()
        for answer in [missing, altered, prefix] {
            #expect(answer.status == 403)
            #expect(answer.body.isEmpty)
        }
    }

    @Test("clear refuses a request without the token and leaves the list alone")
    func clearRefusedWithoutToken() async throws {
        let (inspector, client) = try await InspectorHarness.start()
        _ = try await client.send(InspectorHarness.service, .get, "/items")
        let answer = try await InspectorHarness.fetch(InspectorHarness.url(inspector, token: "nope", "clear"), method: .POST)
        let held = inspector.recorder.count
        await inspector.stop()
        #expect(answer.status == 403)
        #expect(held == 1)
    }

    @Test("a release build refuses to start the inspector with the release lock's typed error")
    func releaseLock() async throws {
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await Inspector.start(registry: InspectorHarness.registry(isReleaseBuild: true))
        }
        #expect(error?.code == .inspectorLocked)
        #expect(error?.code.rawValue == "SwitchyardInspector.inspectorLocked")
    }

    @Test("the token is 32 random bytes in hex, new for every inspector")
    func tokenShape() async throws {
        let (first, _) = try await InspectorHarness.start()
        let (second, _) = try await InspectorHarness.start()
        let tokens = [first.url.pathComponents[1], second.url.pathComponents[1]]
        await first.stop()
        await second.stop()
        for token in tokens {
            #expect(token.count == 64)
            #expect(token.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
        #expect(tokens[0] != tokens[1])
    }

    @Test("the server listens on 127.0.0.1 only")
    func loopbackOnly() async throws {
        let (inspector, _) = try await InspectorHarness.start()
        let port = try #require(inspector.url.port)
        let listeners = Self.listeningAddresses(port: port)
        await inspector.stop()
        #expect(inspector.url.host == "127.0.0.1")
        try #require(listeners != nil, "no /proc/net/tcp on this system")
        #expect(listeners == ["0100007F"])
    }

    /// The local addresses (hex, as the kernel writes them) of the sockets listening on `port`, from
    /// `/proc/net/tcp` and `/proc/net/tcp6`; `nil` where the files do not exist.
    static func listeningAddresses(port: Int) -> [String]? {
        // Read to the end through a handle: a /proc file reports size 0, and a read sized by it can stop
        // after the first page, leaving out the listening socket when many sockets are open.
        let files = ["/proc/net/tcp", "/proc/net/tcp6"].compactMap { path -> String? in
            guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? handle.close() }
            return (try? handle.readToEnd()).map { String(decoding: $0, as: UTF8.self) }
        }
        guard !files.isEmpty else { return nil }
        let suffix = ":" + String(format: "%04X", port)
        var found: [String] = []
        for line in files.flatMap({ $0.split(separator: "\n").dropFirst() }) {
            let columns = line.split(separator: " ")
            guard columns.count > 3, columns[1].hasSuffix(suffix), columns[3] == "0A" else { continue }
            found.append(String(columns[1].dropLast(suffix.count)))
        }
        return found
    }
}

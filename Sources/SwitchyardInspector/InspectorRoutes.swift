import Foundation
import HTTPTypes
import Hummingbird
import Switchyard
import SwitchyardHAR

/// The inspector's routes, each under the token segment that ``TokenGate`` has checked: the page and
/// its two files, the event stream, the HAR export and clear. None of them changes what the app's
/// calls do.
struct InspectorRoutes: Sendable {
    let page: InspectorPage
    let feed: InspectorFeed
    let recorder: HARRecorder
    /// The registry whose pipelines' order rules the page shows beside each stage.
    let registry: ServiceRegistry

    func responder() -> RouterResponder<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.get(":token") { request, _ in
            // The page's files are named relative to it, so it is served under a trailing slash.
            guard request.uri.path.hasSuffix("/") else {
                return Response(status: .seeOther, headers: [.location: request.uri.path + "/", .cacheControl: "no-store"])
            }
            return Self.file(
                page.html,
                type: "text/html; charset=utf-8",
                extra: [
                    .contentSecurityPolicy:
                        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
                ]
            )
        }
        router.get(":token/inspector.js") { _, _ in Self.file(page.script, type: "text/javascript; charset=utf-8") }
        router.get(":token/inspector.css") { _, _ in Self.file(page.style, type: "text/css; charset=utf-8") }
        router.get(":token/events") { _, _ in events() }
        router.get(":token/session.har") { _, _ in try export() }
        router.get(":token/rules.json") { _, _ in try rules() }
        router.post(":token/clear") { _, _ in
            recorder.removeAll()
            feed.publishClear()
            return Response(status: .noContent, headers: Self.common)
        }
        return router.buildResponder()
    }

    /// The order rules each stage of each registered service obeys (``Pipeline/orderRules``), by
    /// service and stage id, as the rules describe themselves: what the page shows beside a stage.
    private func rules() throws -> Response {
        var byService: [String: [String: [String]]] = [:]
        for id in registry.serviceIDs {
            guard let pipeline = try? registry.pipeline(for: id) else { continue }
            byService[id.rawValue] = Dictionary(
                uniqueKeysWithValues: pipeline.orderRules.map { ($0.key.rawValue, $0.value.map(\.description)) }
            )
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Self.file(try encoder.encode(byService), type: "application/json")
    }

    /// Headers every answer carries: never cached, never sniffed, never sent on as a referrer (the
    /// token is in the URL).
    static let common: HTTPFields = [
        .cacheControl: "no-store",
        .xContentTypeOptions: "nosniff",
        .referrerPolicy: "no-referrer",
    ]

    private static func file(_ data: Data, type: String, extra: HTTPFields = [:]) -> Response {
        var headers = common
        headers[.contentType] = type
        headers.append(contentsOf: extra)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The event stream: a reconnection delay, every entry held now, then each entry as it is kept and
    /// each clear, until the page goes away or the inspector stops.
    private func events() -> Response {
        var headers = Self.common
        headers[.contentType] = "text/event-stream; charset=utf-8"
        guard let frames = feed.subscribe() else { return Response(status: .serviceUnavailable, headers: headers) }
        let held = recorder.entries
        let feed = self.feed
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody { writer in
                try await writer.write(
                    ByteBuffer(string: InspectorFeed.encode(ServerSentEvent(type: "hello", data: "", retry: .seconds(1))))
                )
                for entry in held { try await writer.write(ByteBuffer(string: feed.frame(for: entry))) }
                for await frame in frames { try await writer.write(ByteBuffer(string: frame)) }
                try await writer.finish(nil)
            }
        )
    }

    /// The recorder's archive, as shown on the page (bodies only when the app opted in), to download.
    private func export() throws -> Response {
        var document = recorder.document()
        document.log.entries = document.log.entries.map { InspectorEntry.shown($0, includeBodies: feed.options.includeBodies) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var headers = Self.common
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"switchyard-session.har\""
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(document))))
    }
}

extension HTTPField.Name {
    fileprivate static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    fileprivate static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}

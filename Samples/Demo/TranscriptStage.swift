import Foundation
import Switchyard

/// A sample stage that prints one line per request and one per response, with the duration.
/// Where it is registered decides what it sees: last, the request exactly as sent and the raw
/// response; first, the call as the app made it and the final outcome.
struct TranscriptStage: Stage {
    var name: String { "Transcript" }

    /// Where the lines go: printed as they come unless given (a streamed step collects them, so that
    /// they do not break the answer it prints word by word).
    var write: @Sendable (String) -> Void = { print($0) }

    func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        let start = ContinuousClock.now
        let headers = request.headerFields.filter { $0.name.canonicalName.hasPrefix("x-") || Self.shown.contains($0.name.canonicalName) }
            .map { "\($0.name): \($0.name == .authorization ? "<redacted>" : $0.value)" }
        write("    → \(request.method.rawValue) \(request.path)" + (headers.isEmpty ? "" : "  [" + headers.joined(separator: ", ") + "]"))
        if let body = request.body?.bytes {
            write("      body on the wire: \(Self.preview(body, contentType: request.headerFields[.contentType]))")
        }
        do {
            let response = try await next(request, context)
            let size =
                response.body.stream == nil ? "\(response.body.count) bytes" : response.status == .noContent ? "no content" : "streaming"
            write("    ← \(response.status.code) in \(Self.milliseconds(ContinuousClock.now - start)) ms, \(size)")
            if response.headerFields[.contentType] == "application/octet-stream" {
                write("      body on the wire: \(Self.preview(response.bytes, contentType: "application/octet-stream"))")
            }
            return response
        } catch let error as SwitchyardError {
            write(
                "    ← failed in \(Self.milliseconds(ContinuousClock.now - start)) ms: [\(error.code)] at \(error.stage?.rawValue ?? "?")"
            )
            throw error
        }
    }

    /// The header fields shown besides the `X-` ones (the authorization redacted).
    private static let shown: Set<String> = ["authorization", "last-event-id"]

    /// Text bodies as text; binary bodies as the hex of their first bytes.
    private static func preview(_ body: Data, contentType: String?) -> String {
        guard contentType == "application/octet-stream" else { return String(decoding: body.prefix(80), as: UTF8.self) }
        return body.prefix(20).map { String(format: "%02x", $0) }.joined() + "… (\(body.count) bytes of ciphertext)"
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return String(Double(Int(value * 10)) / 10)
    }
}

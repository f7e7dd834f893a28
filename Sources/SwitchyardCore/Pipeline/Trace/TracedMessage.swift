/// A request as the transport sent it, or an answer as it received it, redacted: the transport's
/// step of a ``PipelineTrace`` carries both, so a trace shows what went over the wire.
public struct TracedMessage: Sendable, Hashable, Codable {
    /// `GET https://api.test/users/7?page=2` (target redacted like a log's), or `200 OK`.
    public var line: String
    /// The header fields in order, each a `[name, value]` pair, secret values redacted.
    public var headerFields: [[String]]
    /// The body's summary; `nil` when there is none.
    public var body: BodySummary?
    /// The body as text, redacted as a log line shows it and cut after 64 KiB; `nil` unless the trace
    /// keeps bodies (``PipelineTrace/Detail/bodies``) and the body is text a log would show.
    public var bodyText: String?

    /// Creates a traced message.
    ///
    /// - Parameters:
    ///   - line: the request or status line.
    ///   - headerFields: `[name, value]` pairs, redacted.
    ///   - body: the body's summary.
    ///   - bodyText: the redacted body text, when kept.
    public init(line: String, headerFields: [[String]], body: BodySummary? = nil, bodyText: String? = nil) {
        self.line = line
        self.headerFields = headerFields
        self.body = body
        self.bodyText = bodyText
    }

    /// The value of the first header field named `name` (compared case-insensitively).
    ///
    /// - Parameter name: a field name.
    public func headerField(_ name: String) -> String? {
        headerFields.first { $0.first?.lowercased() == name.lowercased() }?.last
    }
}

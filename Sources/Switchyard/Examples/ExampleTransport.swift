public import HTTPTypes

/// A transport that answers every call from the example responses an API description documents for
/// its endpoints — for previews, UI tests and demo builds: Moya's `sampleData`, taken from the
/// document instead of written by hand.
///
/// `switchyard-gen` gives each generated endpoint with documented examples a static `examples` list
/// (from an OpenAPI document's media-type `example`, `examples` and schema `example`, or a description
/// file's `examples:`), and each service a `<service>Examples` list of its operations to build this
/// transport from. The answer runs back through the service's whole pipeline, so envelope checks,
/// reformers and decoding see it as they see a server's; its ``Response/source`` is
/// ``ResponseSource/example``.
///
/// ```swift
/// // Always from the examples (a SwiftUI preview, a UI test):
/// let previews = ExampleTransport(CatalogAPI.catalogExamples)
/// // Demo mode: from the examples in the demo environment, from the network in every other one.
/// let transport = ExampleTransport(CatalogAPI.catalogExamples, live: AsyncHTTPClientTransport())
/// try CatalogAPI.registerCatalog(in: registry, transport: transport, baseURLs: [.demo: "https://demo.invalid"])
/// try registry.switchEnvironment(to: .demo)      // persisted; refused in a release build
/// ```
///
/// A request is matched to an operation by its method and by its path against the operation's path
/// template (`/articles/{id}`), whatever prefix the base URL adds; the most specific template wins.
/// The answer is the operation's first `2xx` example, or the first one with the status the call
/// chooses (``Status``) or the transport was created with. A request no operation matches, or a
/// status no example documents, fails with ``SwitchyardError/Code/noExample`` — never an empty `200`.
/// Matching takes time linear in the request's path, whatever the templates; a call that is cancelled
/// or past its deadline (``CallContext/deadline``) ends with its cancellation or
/// ``SwitchyardError/Code/timeout`` instead of an answer.
public struct ExampleTransport: Transport {
    /// An endpoint's documented example responses, with the method and path template that match its
    /// requests.
    public struct Operation: Sendable {
        /// The HTTP method.
        public var method: HTTPRequest.Method
        /// The path template, with `{name}` placeholders, as the description writes it.
        public var path: String
        /// The example responses — status, `Content-Type` and body — in the document's order.
        public var examples: [Response]

        /// Creates an operation.
        ///
        /// - Parameters:
        ///   - method: the HTTP method.
        ///   - path: the path template, such as `/articles/{id}`.
        ///   - examples: the example responses, in the order they are preferred.
        public init(_ method: HTTPRequest.Method, _ path: String, examples: [Response]) {
            self.method = method
            self.path = path
            self.examples = examples
        }
    }

    /// The status whose example answers a call (an error state in a preview), set per call with
    /// `options.setContextValue(.notFound, for: ExampleTransport.Status.self)`; it wins over the
    /// transport's own.
    public enum Status: CallContextKey {
        /// The status.
        public typealias Value = HTTPResponse.Status
    }

    private let operations: [Operation]
    private let templates: [PathTemplate]
    private let status: HTTPResponse.Status?
    private let live: (any Transport)?

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - operations: the operations and their examples, such as a generated `<service>Examples`.
    ///   - status: the status whose example answers calls that choose none; the first `2xx` one's when `nil`.
    ///   - live: the transport for calls outside the ``ServerEnvironment/demo`` environment; `nil` to
    ///     answer every call from the examples, in every environment.
    public init(_ operations: [Operation], status: HTTPResponse.Status? = nil, live: (any Transport)? = nil) {
        self.operations = operations
        self.templates = operations.map { PathTemplate($0.path) }
        self.status = status
        self.live = live
    }

    /// `ExampleTransport`, and the live transport's name when there is one.
    public var name: String { live.map { "ExampleTransport(live: \($0.name))" } ?? "ExampleTransport" }

    /// The live transport's answer; an example is answered at once.
    public var observesCallCancellation: Bool { live?.observesCallCancellation ?? true }

    /// Answers from the examples, or passes the request to the live transport outside the demo environment.
    ///
    /// - Throws: ``SwitchyardError/Code/noExample`` when no operation matches the request or none of its
    ///   examples has the chosen status; ``SwitchyardError/Code/cancelled`` or ``SwitchyardError/Code/timeout``
    ///   when the call was cancelled or its deadline passed; the live transport's errors.
    public func send(_ request: Request, context: CallContext) async throws -> Response {
        if let live, context.environment != .demo { return try await live.send(request, context: context) }
        try Self.checkStillWanted(context)
        if context.observesTransfer {
            context.reportTransferStarted()
            if let body = request.body?.bytes {
                context.reportSent(TransferProgress(completed: Int64(body.count), total: Int64(body.count)))
            }
        }
        var response = try answer(request, status: context[Status.self] ?? status)
        response.source = .example
        try Self.checkStillWanted(context)
        if context.observesTransfer {
            context.reportReceived(TransferProgress(completed: Int64(response.body.count), total: Int64(response.body.count)))
        }
        return response
    }

    /// Throws the call's end when it was cancelled or its deadline passed: such a call is not answered.
    private static func checkStillWanted(_ context: CallContext) throws(SwitchyardError) {
        if let cancelled = context.control.cancellationError { throw cancelled }
        if Task.isCancelled { throw SwitchyardError(code: .cancelled, message: "The call was cancelled.") }
        if context.isPastDeadline { throw CallControl.error(for: .deadline) }
    }

    /// The example for a request: its operation's example with `status`, or its first `2xx` one.
    private func answer(_ request: Request, status: HTTPResponse.Status?) throws(SwitchyardError) -> Response {
        let segments = request.pathWithoutQuery.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var best: (index: Int, rank: PathTemplate.Rank)?
        for (index, template) in templates.enumerated() where operations[index].method == request.method {
            guard let rank = template.match(segments) else { continue }
            if best.map({ rank > $0.rank }) ?? true { best = (index, rank) }
        }
        let target = "\(request.method) \(request.pathWithoutQuery)"
        guard let index = best?.index else {
            let known = operations.prefix(8).map { "\($0.method) \($0.path)" }.joined(separator: ", ")
            throw SwitchyardError(
                code: .noExample,
                message: operations.isEmpty
                    ? "no documented operation matches \(target): the example transport has none"
                    : "no documented operation matches \(target); the examples describe \(known)"
                        + (operations.count > 8 ? " and \(operations.count - 8) more" : "")
            )
        }
        let operation = operations[index]
        let example: Response?
        if let status {
            example = operation.examples.first { $0.status.code == status.code }
        } else {
            example = operation.examples.first { $0.status.kind == .successful }
        }
        guard let example else {
            let documented = operation.examples.map { String($0.status.code) }
            throw SwitchyardError(
                code: .noExample,
                message: "\(operation.method) \(operation.path) documents no example for "
                    + (status.map { "status \($0.code)" } ?? "a 2xx status")
                    + (documented.isEmpty ? "; it documents none" : "; it documents \(documented.joined(separator: ", "))")
            )
        }
        return example
    }
}

/// An operation's path template, split into segments of literal text and `{name}` placeholders.
private struct PathTemplate: Sendable {
    /// How specific a match is: more segments, then more literal characters, win.
    struct Rank: Comparable {
        let segments: Int
        let literals: Int

        static func < (lhs: Rank, rhs: Rank) -> Bool { (lhs.segments, lhs.literals) < (rhs.segments, rhs.literals) }
    }

    /// One segment: literal pieces with a placeholder between each two.
    private let segments: [[Substring]]
    private let literals: Int

    init(_ template: String) {
        let path = template.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var parsed: [[Substring]] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            var pieces: [Substring] = []
            var rest = segment[...]
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                pieces.append(rest[..<open])
                rest = rest[rest.index(after: close)...]
            }
            pieces.append(rest)
            parsed.append(pieces)
        }
        segments = parsed
        literals = parsed.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
    }

    /// The match's rank when the template matches the end of a request path's segments, else `nil`:
    /// the base URL's own path comes first.
    func match(_ path: ArraySlice<Substring>) -> Rank? {
        guard segments.count <= path.count else { return nil }
        for (pieces, segment) in zip(segments, path.suffix(segments.count)) where !Self.matches(segment, pieces[...]) {
            return nil
        }
        return Rank(segments: segments.count, literals: literals)
    }

    /// Whether a segment is the pieces with a non-empty value between each two, in time linear in the
    /// segment's length (times a piece's): the first piece is a prefix and the last a suffix, and each
    /// piece between takes its leftmost place after the previous one's end and one character more —
    /// the earliest end leaves the most room for the pieces after it, so no other choice can succeed
    /// where it fails, and nothing is tried twice.
    private static func matches(_ segment: Substring, _ pieces: ArraySlice<Substring>) -> Bool {
        guard let first = pieces.first, let last = pieces.last else { return false }
        let text = Array(segment.utf8)
        let head = Array(first.utf8)
        guard text.starts(with: head) else { return false }
        guard pieces.count > 1 else { return text.count == head.count }
        let tail = Array(last.utf8)
        // Where the last piece must start: it ends the segment.
        let tailStart = text.count - tail.count
        guard tailStart >= head.count, text[tailStart...].elementsEqual(tail) else { return false }
        var end = head.count
        for piece in pieces.dropFirst().dropLast() {
            // A placeholder takes at least one character before the piece.
            guard let start = firstIndex(of: Array(piece.utf8), in: text, from: end + 1, before: tailStart) else { return false }
            end = start + piece.utf8.count
        }
        // The last placeholder takes at least one character too.
        return end < tailStart
    }

    /// Where `piece` first occurs in `text` at `from` or later, ending by `limit`; `nil` when nowhere.
    private static func firstIndex(of piece: [UInt8], in text: [UInt8], from: Int, before limit: Int) -> Int? {
        guard from + piece.count <= limit else { return nil }
        var start = from
        while start + piece.count <= limit {
            if text[start..<(start + piece.count)].elementsEqual(piece) { return start }
            start += 1
        }
        return nil
    }
}

extension ServerEnvironment {
    /// Demo mode: the environment in which an ``ExampleTransport`` with a live transport answers from
    /// the documented examples. Switched to, persisted and locked in release builds like any environment.
    public static let demo: ServerEnvironment = "demo"
}

extension ResponseSource {
    /// An ``ExampleTransport`` answered from a documented example.
    public static let example = ResponseSource("example")
}

extension SwitchyardError.Code {
    /// An ``ExampleTransport`` has no documented example for the request: no operation matches its
    /// method and path, or none of the operation's examples has the chosen status.
    public static let noExample = SwitchyardError.Code("noExample")
}

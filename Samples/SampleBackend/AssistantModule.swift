import NIOCore
import NIOHTTP1

/// The streamed "assistant" module under `/assistant-api`, for `Authorization: Bearer demo-token`
/// only (401 otherwise):
///
/// - `GET answer?q=QUESTION` — the answer word by word as Server-Sent Events (`text/event-stream`):
///   one `token` event per word, its `id` the word's number from 1, its `data` the word; the first
///   event of each connection also sets `retry: 100`. A `Last-Event-ID` of `N` resumes after word
///   `N`; one naming the last word answers `204`, as the standard's "nothing more to send".
///   `dropAfter=K` closes a first connection (one without `Last-Event-ID`) a pace after its `K`th
///   word, without ending the body: a dropped connection to resume from.
/// - `GET progress?steps=N` — a job's progress as JSON Lines (`application/jsonl`), `N` lines
///   `{"step":…,"steps":N,"percent":…,"state":"running"|"done"}`, then the end.
///
/// Both flush each piece as it is produced and wait `pace=MS` milliseconds (60 unless given,
/// 0...1000) before the next, so a reader sees the answer arrive. Bounded: a question of 1...400
/// bytes of UTF-8 without control characters, 1...1000 steps, a `Last-Event-ID` naming a word of the
/// answer; anything else answers 400 with an envelope saying which.
enum AssistantModule {
    /// The largest question, in bytes of UTF-8.
    static let maximumQuestionBytes = 400
    /// The most lines the progress feed sends.
    static let maximumSteps = 1000
    /// The wait between pieces unless the query gives one.
    static let defaultPace = 60
    /// The longest wait between pieces a query may ask for, in milliseconds.
    static let maximumPace = 1000
    /// The reconnection time, in milliseconds, each event stream asks for.
    static let retryMilliseconds = 100
    /// What the answer says after echoing the question.
    static let reply = "Switchyard streams the answer through the pipeline, one word at a time."

    /// Answers a request below `/assistant-api`; `nil` when no route matches.
    static func route(_ request: LoopbackRequest, segments: ArraySlice<Substring>) -> LoopbackAction? {
        guard request.isRead, segments.count == 1 else { return nil }
        let route = segments.first
        guard route == "answer" || route == "progress" else { return nil }
        guard request.head.headers.first(name: "authorization") == UsersModule.demoToken else {
            return .respond(.envelope(code: 401, msg: "a bearer token is required", status: .unauthorized))
        }
        guard let pace = Self.integer(request.queryItem(named: "pace"), in: 0...Self.maximumPace, default: Self.defaultPace) else {
            return Self.refusal("pace must be 0...\(Self.maximumPace) milliseconds")
        }
        return route == "answer" ? Self.answer(request, pace: pace) : Self.progress(request, pace: pace)
    }

    /// The words of the answer to `question`.
    static func words(answering question: String) -> [Substring] {
        let words = "You asked: \(question) \(Self.reply)"
        return words.split(whereSeparator: \.isWhitespace)
    }

    private static func answer(_ request: LoopbackRequest, pace: Int) -> LoopbackAction {
        guard let question = request.queryItem(named: "q"),
            (1...Self.maximumQuestionBytes).contains(question.utf8.count),
            !question.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
            question.contains(where: { !$0.isWhitespace })
        else {
            return Self.refusal("q must be a question of 1...\(Self.maximumQuestionBytes) bytes without control characters")
        }
        let words = Self.words(answering: question)
        let resumed = request.head.headers.first(name: "last-event-id").flatMap { $0.isEmpty ? nil : $0 }
        var first = 0
        if let resumed {
            guard let last = Int(resumed), (0...words.count).contains(last) else {
                return Self.refusal("Last-Event-ID must name a word of the answer, 0...\(words.count)")
            }
            guard last < words.count else {
                return .respond(LoopbackResponse(status: .noContent, contentType: "text/event-stream", body: ByteBuffer()))
            }
            first = last
        }
        var dropAfter: Int?
        if let requested = request.queryItem(named: "dropAfter") {
            guard let count = Self.integer(requested, in: 0...words.count, default: 0) else {
                return Self.refusal("dropAfter must be 0...\(words.count) words")
            }
            dropAfter = resumed == nil ? count : nil
        }
        let pieces = words[first...].indices.map { index in
            var piece = ByteBuffer()
            if index == first { piece.writeString("retry: \(Self.retryMilliseconds)\n") }
            piece.writeString("event: token\nid: \(index + 1)\ndata: \(words[index])\n\n")
            return piece
        }
        return .paced(
            PacedStream(
                headers: [("content-type", "text/event-stream; charset=utf-8"), ("cache-control", "no-cache")],
                pieces: pieces,
                pace: .milliseconds(Int64(pace)),
                dropAfter: dropAfter
            )
        )
    }

    private static func progress(_ request: LoopbackRequest, pace: Int) -> LoopbackAction {
        guard let steps = Self.integer(request.queryItem(named: "steps"), in: 1...Self.maximumSteps, default: 5) else {
            return Self.refusal("steps must be 1...\(Self.maximumSteps)")
        }
        let pieces = (1...steps).map { step in
            let line: JSONValue = .object([
                ("step", .int(step)), ("steps", .int(steps)), ("percent", .int(step * 100 / steps)),
                ("state", .string(step == steps ? "done" : "running")),
            ])
            var piece = line.buffer
            piece.writeString("\n")
            return piece
        }
        return .paced(PacedStream(headers: [("content-type", "application/jsonl")], pieces: pieces, pace: .milliseconds(Int64(pace))))
    }

    /// A 400 envelope saying what is wrong with the request.
    private static func refusal(_ message: String) -> LoopbackAction {
        .respond(.envelope(code: 400, msg: message, status: .badRequest))
    }

    /// An integer query value within `range`: absent means `defaultValue`; anything else outside it, `nil`.
    private static func integer(_ value: String?, in range: ClosedRange<Int>, default defaultValue: Int) -> Int? {
        guard let value else { return defaultValue }
        guard let number = Int(value), range.contains(number) else { return nil }
        return number
    }
}

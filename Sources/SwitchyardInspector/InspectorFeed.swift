import Foundation
import Switchyard
import SwitchyardHAR
import Synchronization

/// The page's live updates: each entry the recorder keeps, and each clear, as a `text/event-stream`
/// frame sent to every open event stream.
///
/// Frames are built from the library's ``ServerSentEvent`` and redacted with
/// ``Redaction/redactEvents(_:)`` — the redaction an event stream gets in logs and HAR — before they
/// leave, on top of the recording stage's own redaction.
final class InspectorFeed: Sendable {
    let options: Inspector.Options

    private struct State {
        var subscribers: [Int: AsyncStream<String>.Continuation] = [:]
        var nextID = 0
        var closed = false
    }

    private let state = Mutex(State())

    /// The most frames one slow page may have waiting; older ones are dropped (the page can reload).
    static let backlog = 1000

    init(options: Inspector.Options) {
        self.options = options
    }

    /// Sends an entry the recorder kept to every open stream.
    func publish(_ entry: HAR.Entry) {
        broadcast(frame(for: entry))
    }

    /// Tells every open stream that the list was cleared.
    func publishClear() {
        broadcast(Self.encode(ServerSentEvent(type: "clear", data: "")))
    }

    /// A new stream of frames, or `nil` once the inspector has stopped.
    func subscribe() -> AsyncStream<String>? {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(Self.backlog))
        let id: Int? = state.withLock { state in
            guard !state.closed else { return nil }
            defer { state.nextID += 1 }
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        guard let id else { return nil }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// How many streams are open.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Ends every stream and refuses new ones.
    func close() {
        let ending = state.withLock { state in
            state.closed = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for continuation in ending { continuation.finish() }
    }

    /// The frame of one entry: event `entry`, its id naming the call and attempt (so the page drops
    /// an entry it has already had), its data the entry as one line of JSON — bodies left out unless
    /// the app opted in.
    func frame(for entry: HAR.Entry) -> String {
        let shown = InspectorEntry.shown(entry, includeBodies: options.includeBodies)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(shown)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let event = ServerSentEvent(type: "entry", data: json, id: InspectorEntry.key(of: entry))
        return options.redaction.redactEvents(Self.encode(event))
    }

    /// An event as `text/event-stream` text: its `event`, `id` and `retry` fields, a `data` line per
    /// line of its data, and the blank line that dispatches it. Line breaks in the type and id are
    /// dropped: they would end the field.
    static func encode(_ event: ServerSentEvent) -> String {
        func field(_ value: String) -> String { value.filter { $0 != "\n" && $0 != "\r" && $0 != "\0" } }
        var lines: [String] = []
        if event.type != "message" { lines.append("event: " + field(event.type)) }
        if let id = event.id { lines.append("id: " + field(id)) }
        if let retry = event.retry {
            let components = retry.components
            lines.append("retry: \(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)")
        }
        let data = event.data.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        lines.append(contentsOf: data.map { "data: " + $0 })
        return lines.joined(separator: "\n") + "\n\n"
    }

    private func broadcast(_ frame: String) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.yield(frame) }
    }
}

public import Foundation
import Switchyard
import SwitchyardSupport
import Synchronization

/// Collects the calls that ``HARRecordingStage``s observe — from every service whose stages share
/// it — and exports them as an HTTP Archive (HAR 1.2) that a browser's developer tools or any HAR
/// viewer opens.
///
/// Everything it holds was redacted by the stage that recorded it (see ``HARRecordingStage``), and
/// it holds a bounded amount:
/// - at most ``maxEntries`` entries. When another call ends with the recorder full, ``overflow``
///   decides: ``Overflow/dropOldest`` (the default) forgets the oldest entry, so the archive holds
///   the latest calls; ``Overflow/stopRecording`` keeps the first ones and records no more. Either
///   way ``droppedCount`` counts what was not kept, and the exported log's `comment` says so;
/// - at most ``maxBodyBytes`` of each request and each response body (after redaction); a body cut
///   short says so in its `comment`, and its `size` stays the whole body's.
///
/// It is thread-safe: any number of calls may record into it while another task exports.
///
/// ```swift
/// let recorder = HARRecorder(maxEntries: 500)
/// let stages: [any Stage] = [LoggingStage(), HARRecordingStage(recorder: recorder)]
/// // … calls …
/// try recorder.write(to: URL(fileURLWithPath: "/tmp/session.har"))   // created 0600
/// ```
public final class HARRecorder: Sendable {
    /// What happens when a call ends and the recorder already holds ``maxEntries`` entries.
    public enum Overflow: Sendable, Hashable {
        /// The oldest entry is forgotten to make room: the archive holds the latest calls.
        case dropOldest
        /// The new entry is not recorded: the archive holds the first calls.
        case stopRecording
    }

    /// The most entries held at once (at least 1).
    public let maxEntries: Int
    /// The most bytes of one body recorded (at least 0): redacted text is cut on a character
    /// boundary, binary bytes before base64.
    public let maxBodyBytes: Int
    /// What happens to a call that ends when the recorder is full.
    public let overflow: Overflow
    /// The program named as the archive's creator.
    public let creator: HAR.Creator

    private struct State {
        var entries: [(started: Date, entry: HAR.Entry)] = []
        var dropped = 0
    }

    private let state = Mutex(State())
    /// Told of each entry the recorder keeps.
    private let onRecord: (@Sendable (HAR.Entry) -> Void)?

    /// Creates an empty recorder.
    ///
    /// - Parameters:
    ///   - maxEntries: the most entries held; 1,000 by default.
    ///   - maxBodyBytes: the most bytes of one body recorded; 64 KiB by default.
    ///   - overflow: what happens when the recorder is full; ``Overflow/dropOldest`` by default.
    ///   - creator: the archive's creator; ``HAR/Creator/switchyard`` by default.
    ///   - onRecord: told of each entry the recorder keeps, as its call ends, on the call's task and
    ///     outside the recorder's lock (a live view such as the inspector page); `nil` by default.
    ///     It must return quickly: the call it recorded waits for it.
    public init(
        maxEntries: Int = 1000,
        maxBodyBytes: Int = 64 * 1024,
        overflow: Overflow = .dropOldest,
        creator: HAR.Creator = .switchyard,
        onRecord: (@Sendable (HAR.Entry) -> Void)? = nil
    ) {
        self.maxEntries = max(1, maxEntries)
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.overflow = overflow
        self.creator = creator
        self.onRecord = onRecord
    }

    /// Whether an entry ending now would be kept: `false` only when the recorder is full under
    /// ``Overflow/stopRecording``, so a stage can skip building it. A `false` answer counts the
    /// call as dropped.
    func accepts() -> Bool {
        guard overflow == .stopRecording else { return true }
        return state.withLock { state in
            guard state.entries.count >= maxEntries else { return true }
            state.dropped += 1
            return false
        }
    }

    /// Adds an entry for a call that started at `started`, under the limits.
    func record(_ entry: HAR.Entry, started: Date) {
        let kept = state.withLock { state in
            if state.entries.count >= maxEntries {
                state.dropped += 1
                guard overflow == .dropOldest else { return false }
                state.entries.removeFirst()
            }
            state.entries.append((started, entry))
            return true
        }
        if kept { onRecord?(entry) }
    }

    /// The entries held, ordered by when their calls started.
    public var entries: [HAR.Entry] {
        let held = state.withLock { $0.entries }
        return held.enumerated().sorted { ($0.element.started, $0.offset) < ($1.element.started, $1.offset) }.map(\.element.entry)
    }

    /// How many entries are held.
    public var count: Int { state.withLock { $0.entries.count } }

    /// How many entries the limit kept out since the recorder was created or last emptied.
    public var droppedCount: Int { state.withLock { $0.dropped } }

    /// Forgets every entry and the dropped count: the next export starts a new session.
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// The archive of the entries held now.
    public func document() -> HAR.Document {
        let entries = self.entries
        let dropped = droppedCount
        var comment: String?
        if dropped > 0 {
            let kept = overflow == .dropOldest ? "the oldest were dropped" : "calls after the first \(maxEntries) were not recorded"
            comment = "\(dropped) entries left out by the limit of \(maxEntries): \(kept)"
        }
        return HAR.Document(log: HAR.Log(creator: creator, entries: entries, comment: comment))
    }

    /// The archive as HAR 1.2 JSON (UTF-8, pretty-printed, keys sorted).
    public func export() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document())
    }

    /// Writes the archive to `url`, replacing any file there, private to the user: the file is
    /// created `0600` (written beside it and renamed into place), whatever the process's umask.
    public func write(to url: URL) throws {
        try PrivateFiles.replace(url, with: export())
    }

    /// An instant in the form HAR uses: ISO 8601, UTC, with milliseconds.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

import Foundation
import SQLiteNIO
import Switchyard

/// A queued call read back for sending.
struct QueuedHead: Sendable {
    let id: String
    let idempotencyKey: String
    let tags: Set<RequestTag>
    let attempts: Int
    let enqueuedAt: Date
    let nextAttemptAt: Date
    let payload: Data
}

/// What the store keeps of a finished call besides its state and status.
struct StoredOutcome: Codable {
    var errorModule: String?
    var errorName: String?
    var message: String?
    var body: Data?
}

/// Which entries a change applies to.
enum EntryFilter {
    case id(String)
    case tag(RequestTag)
    case account(SQLiteData)

    var clause: (String, SQLiteData) {
        switch self {
        case .id(let id): ("id = ?", .text(id))
        case .tag(let tag): ("instr(tags, ?) > 0", .text(OutboxStore.tagText([tag])))
        case .account(let account): ("account = ?", account)
        }
    }
}

extension OutboxStore {
    /// Tags as one text column: each between unit separators, so one tag is found with `instr`.
    static func tagText(_ tags: Set<RequestTag>) -> String {
        "\u{1F}" + tags.map(\.rawValue).sorted().map { $0 + "\u{1F}" }.joined()
    }

    static func tags(_ text: String) -> Set<RequestTag> {
        Set(text.split(separator: "\u{1F}").map { RequestTag(String($0)) })
    }

    /// Stores a new pending entry; durable when this returns.
    func insert(
        id: String,
        key: String,
        queue: String,
        account: String?,
        tags: Set<RequestTag>,
        at date: Date,
        payload: Data
    )
        async throws(SwitchyardError)
    {
        try await run(
            """
            INSERT INTO entries (id, idempotency_key, queue, account, tags, state, attempts, enqueued_at, next_attempt_at, payload)
            VALUES (?, ?, ?, ?, ?, 0, 0, ?, ?, ?)
            """,
            [
                .text(id), .text(key), .text(queue), try accountKey(account), .text(Self.tagText(tags)),
                .float(date.timeIntervalSince1970), .float(date.timeIntervalSince1970), .bytes(try seal(payload)),
            ]
        )
    }

    /// The first pending entry of `queue`, if any.
    func head(of queue: String) async throws(SwitchyardError) -> QueuedHead? {
        let rows = try await rows(
            """
            SELECT id, idempotency_key, tags, attempts, enqueued_at, next_attempt_at, payload FROM entries
            WHERE queue = ? AND state = 0 ORDER BY seq LIMIT 1
            """,
            [.text(queue)]
        )
        guard let row = rows.first else { return nil }
        guard let id = row.column("id")?.string, let key = row.column("idempotency_key")?.string,
            let payload = row.column("payload")?.bytes
        else {
            throw SwitchyardError(code: .storeCorrupt, message: "an outbox entry is missing its id, key or call")
        }
        return QueuedHead(
            id: id,
            idempotencyKey: key,
            tags: Self.tags(row.column("tags")?.string ?? ""),
            attempts: row.column("attempts")?.integer ?? 0,
            enqueuedAt: Date(timeIntervalSince1970: row.column("enqueued_at")?.double ?? 0),
            nextAttemptAt: Date(timeIntervalSince1970: row.column("next_attempt_at")?.double ?? 0),
            payload: try open(payload)
        )
    }

    /// The queues that hold pending entries.
    func pendingQueues() async throws(SwitchyardError) -> [String] {
        try await rows("SELECT DISTINCT queue FROM entries WHERE state = 0").compactMap { $0.column("queue")?.string }
    }

    /// Records a finished entry (delivered, dead letter); a delivered answer is recorded even when
    /// the entry was cancelled while its call was in flight — the server had it.
    func finish(
        _ id: String,
        state: OutboxEntry.State,
        status: Int?,
        outcome: StoredOutcome,
        attempts: Int,
        at date: Date
    )
        async throws(SwitchyardError)
    {
        let blob: Data
        do {
            blob = try JSONEncoder().encode(outcome)
        } catch {
            throw SwitchyardError(code: .storage, message: "cannot encode an outbox outcome", underlyingError: error)
        }
        let from = state == .delivered ? "state IN (0, 1, 4)" : "state = 0"
        try await run(
            "UPDATE entries SET state = ?, status = ?, outcome = ?, attempts = ?, finished_at = ? WHERE id = ? AND \(from)",
            [
                .integer(state.rawValue), status.map { .integer($0) } ?? .null, .bytes(try seal(blob)), .integer(attempts),
                .float(date.timeIntervalSince1970), .text(id),
            ]
        )
    }

    /// Puts a pending entry off until `next`, counting the failed attempt.
    func reschedule(_ id: String, attempts: Int, next: Date) async throws(SwitchyardError) {
        try await run(
            "UPDATE entries SET attempts = ?, next_attempt_at = ? WHERE id = ? AND state = 0",
            [.integer(attempts), .float(next.timeIntervalSince1970), .text(id)]
        )
    }

    /// Moves the entries `filter` selects from one state to another; returns how many moved.
    func move(_ filter: EntryFilter, from: OutboxEntry.State, to: OutboxEntry.State, at date: Date) async throws(SwitchyardError) -> Int {
        let (clause, bind) = filter.clause
        try await run(
            "UPDATE entries SET state = ?, finished_at = ? WHERE state = ? AND \(clause)",
            [.integer(to.rawValue), to == .cancelled ? .float(date.timeIntervalSince1970) : .null, .integer(from.rawValue), bind]
        )
        return try await changes()
    }

    /// Deletes the entries `filter` selects, whatever their state; returns how many.
    func delete(_ filter: EntryFilter) async throws(SwitchyardError) -> Int {
        let (clause, bind) = filter.clause
        try await run("DELETE FROM entries WHERE \(clause)", [bind])
        return try await changes()
    }

    /// Whether any entry is pending: one look at the state index.
    func hasPending() async throws(SwitchyardError) -> Bool {
        let found = try await rows("SELECT 1 AS one FROM entries WHERE state = 0 LIMIT 1")
        return !found.isEmpty
    }

    /// How many entries are in each state.
    func counts() async throws(SwitchyardError) -> OutboxCounts {
        var counts = OutboxCounts()
        for row in try await rows("SELECT state, COUNT(*) AS n FROM entries GROUP BY state") {
            let count = row.column("n")?.integer ?? 0
            switch row.column("state")?.integer.flatMap(OutboxEntry.State.init(rawValue:)) {
            case .pending: counts.pending = count
            case .parked: counts.parked = count
            case .delivered: counts.delivered = count
            case .deadLetter: counts.deadLetters = count
            case .cancelled: counts.cancelled = count
            case nil: throw SwitchyardError(code: .storeCorrupt, message: "an outbox entry has an unknown state")
            }
        }
        return counts
    }

    /// The entries in `state` (every entry when `nil`), oldest first, or the one with `id`.
    func entries(state: OutboxEntry.State?, id: String? = nil) async throws(SwitchyardError) -> [OutboxEntry] {
        var clauses: [String] = []
        var binds: [SQLiteData] = []
        if let state {
            clauses.append("state = ?")
            binds.append(.integer(state.rawValue))
        }
        if let id {
            clauses.append("id = ?")
            binds.append(.text(id))
        }
        let condition = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        let rows = try await rows(
            "SELECT id, idempotency_key, queue, tags, state, attempts, enqueued_at, status, outcome FROM entries \(condition) ORDER BY seq",
            binds
        )
        var entries: [OutboxEntry] = []
        entries.reserveCapacity(rows.count)
        for row in rows { entries.append(try entry(row)) }
        return entries
    }

    private func entry(_ row: SQLiteRow) throws(SwitchyardError) -> OutboxEntry {
        guard let id = row.column("id")?.string, let key = row.column("idempotency_key")?.string,
            let queue = row.column("queue")?.string,
            let state = row.column("state")?.integer.flatMap(OutboxEntry.State.init(rawValue:))
        else {
            throw SwitchyardError(code: .storeCorrupt, message: "an outbox entry is missing its id, key, queue or state")
        }
        var outcome: StoredOutcome?
        if let blob = row.column("outcome")?.bytes {
            do {
                outcome = try JSONDecoder().decode(StoredOutcome.self, from: try open(blob))
            } catch {
                throw SwitchyardError(code: .storeCorrupt, message: "an outbox outcome cannot be read", underlyingError: error)
            }
        }
        var error: SwitchyardError?
        if let outcome, let module = outcome.errorModule, let name = outcome.errorName {
            error = SwitchyardError(code: SwitchyardError.Code(module: module, name: name), message: outcome.message ?? "")
        }
        return OutboxEntry(
            id: id,
            idempotencyKey: key,
            queue: queue,
            tags: Self.tags(row.column("tags")?.string ?? ""),
            state: state,
            attempts: row.column("attempts")?.integer ?? 0,
            enqueuedAt: Date(timeIntervalSince1970: row.column("enqueued_at")?.double ?? 0),
            status: row.column("status")?.integer,
            body: outcome?.body,
            error: error
        )
    }
}

public import Foundation
public import HTTPTypes
public import Switchyard

/// Calls that survive being offline and being killed: each business write is stored on disk as the
/// app described it, then sent exactly once in effect through its service's pipeline.
///
/// ```swift
/// let outbox = try await Outbox(file: Outbox.defaultFile(), client: client)
/// await outbox.start()
/// let entry = try await outbox.enqueue(OutboxCall(.shop, .post, "/orders", body: try .json(order), queue: "orders"))
/// for await finished in await outbox.outcomes() { print(finished.id, finished.state) }
/// ```
///
/// - ``enqueue(_:)`` returns once the call is durable in the store (SQLite, WAL, `synchronous=FULL`),
///   with an `Idempotency-Key` fixed for every attempt, across restarts: a server that honours the
///   key applies the call once however often it arrives.
/// - Calls of one queue go one at a time, oldest first; a head that fails transiently (a connection
///   failure, a timeout, 408, 429, 5xx) holds its queue only, and is tried again after the retry
///   policy's backoff with jitter, until it grows older than ``Configuration/maxAge``. Any other
///   failure makes it a dead letter holding the typed error.
/// - Each attempt runs the service's whole pipeline, so its token, common parameters, nonce and
///   signature are fresh; the stored call never holds them.
public actor Outbox {
    /// The header field every queued call carries: the IETF httpapi draft's `Idempotency-Key`.
    public static let idempotencyKeyField = HTTPField.Name("Idempotency-Key")!

    /// The client whose services send the calls.
    public let client: APIClient
    /// How calls are stored and sent.
    public let configuration: Configuration
    let store: OutboxStore
    /// Whether calls are being sent.
    private var running = false
    /// One worker a queue with pending calls, while running.
    private var workers: [String: Worker] = [:]
    /// Subscribers to finished entries and to counts.
    private var outcomeListeners: [UUID: AsyncStream<OutboxEntry>.Continuation] = [:]
    private var countListeners: [UUID: AsyncStream<OutboxCounts>.Continuation] = [:]
    /// Callers of ``drain()`` waiting for a change.
    private var changeWaiters: [CheckedContinuation<Void, Never>] = []
    /// How many changes the waiters were told of: a change made while a waiter was reading the
    /// counts is seen, not waited for.
    private var changeCount = 0
    /// The count reads started, and the latest one whose counts were yielded.
    private var countReads = 0
    private var countsYielded = 0

    /// A queue's worker: its task, and whether it has a call in flight and for which account.
    private struct Worker {
        let token: UUID
        let task: Task<Void, Never>
        var inFlight = false
        var inFlightAccount: String?
    }

    /// Opens the outbox stored at `file`, creating it when missing (the file `0600`, its directory
    /// `0700`). Calls an earlier run left pending are sent once ``start()`` is called.
    ///
    /// - Throws: ``SwitchyardError/Code/storeCorrupt`` for a malformed or truncated file,
    ///   ``SwitchyardError/Code/storeVersion`` for a store of a newer version,
    ///   ``SwitchyardError/Code/storeFull`` when the disk is full; the file is left as it is.
    public init(file: URL, client: APIClient, configuration: Configuration = Configuration()) async throws(SwitchyardError) {
        self.client = client
        self.configuration = configuration
        self.store = try await OutboxStore.open(at: file, sealing: configuration.sealing, maxPageCount: configuration.maxPageCount)
    }

    /// `Switchyard/outbox.sqlite` in the app's Application Support directory.
    public static func defaultFile() -> URL {
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return base.appendingPathComponent("Switchyard", isDirectory: true).appendingPathComponent("outbox.sqlite")
    }

    /// Stores a call; returns once it is durable on disk, with its id and `Idempotency-Key`. A
    /// running outbox sends it as soon as its queue allows.
    ///
    /// - Throws: ``SwitchyardError/Code/invalidRequest`` for a call carrying credentials,
    ///   ``SwitchyardError/Code/storeFull`` when the disk is full (nothing is stored).
    @discardableResult
    public func enqueue(_ call: OutboxCall) async throws(SwitchyardError) -> OutboxEntry {
        let stored = try StoredCall(call)
        let payload: Data
        do {
            payload = try JSONEncoder().encode(stored)
        } catch {
            throw SwitchyardError(code: .encoding, message: "cannot encode the queued call", underlyingError: error)
        }
        let id = UUID().uuidString
        let key = UUID().uuidString
        let now = configuration.now()
        try await store.insert(id: id, key: key, queue: call.queue, account: call.account, tags: call.tags, at: now, payload: payload)
        if running, workers[call.queue] == nil { startWorker(for: call.queue) }
        await changed()
        return OutboxEntry(
            id: id,
            idempotencyKey: key,
            queue: call.queue,
            tags: call.tags,
            state: .pending,
            attempts: 0,
            enqueuedAt: now,
            status: nil,
            body: nil,
            error: nil
        )
    }

    /// Starts sending: a worker for each queue with pending calls, and for each queue a later
    /// ``enqueue(_:)`` fills.
    public func start() async {
        running = true
        // Connection failures and returns are noted on every call from now on: a queue whose head
        // failed to connect goes as soon as connectivity returns.
        client.connectivity.watch()
        await startWorkers()
    }

    /// Stops sending; calls in flight are cancelled and stay pending (their next attempt carries the
    /// same `Idempotency-Key`).
    public func stop() {
        running = false
        for worker in workers.values { worker.task.cancel() }
        workers = [:]
    }

    /// Sends until no call is pending (parked calls wait for their session), then returns; the outbox
    /// keeps running afterwards. Cancelling the caller's task ends the wait, not the sending.
    ///
    /// - Throws: the store's typed error when it cannot be read.
    public func drain() async throws(SwitchyardError) {
        await start()
        while !Task.isCancelled {
            await startWorkers()
            let seen = changeCount
            guard try await store.hasPending() else { return }
            // No suspension between this check and the wait: a change is either counted or awaited.
            if changeCount == seen { await withCheckedContinuation { changeWaiters.append($0) } }
        }
    }

    /// Closes the store after stopping; the outbox cannot be used afterwards.
    public func close() async {
        stop()
        for listener in outcomeListeners.values { listener.finish() }
        for listener in countListeners.values { listener.finish() }
        outcomeListeners = [:]
        countListeners = [:]
        await store.close()
    }

    // MARK: Reading

    /// The entry with `id`, in whatever state, if the store holds it.
    public func entry(id: String) async throws(SwitchyardError) -> OutboxEntry? {
        try await store.entries(state: nil, id: id).first
    }

    /// The entries in `state` (all of them when `nil`), oldest first — for example the dead letters.
    public func entries(_ state: OutboxEntry.State? = nil) async throws(SwitchyardError) -> [OutboxEntry] {
        try await store.entries(state: state)
    }

    /// How many entries are in each state.
    public func counts() async throws(SwitchyardError) -> OutboxCounts {
        try await store.counts()
    }

    /// The entries that finish from now on — delivered, dead-lettered or cancelled — as they finish.
    public func outcomes() -> AsyncStream<OutboxEntry> {
        let (stream, continuation) = AsyncStream.makeStream(of: OutboxEntry.self)
        let id = UUID()
        outcomeListeners[id] = continuation
        continuation.onTermination = { _ in Task { await self.removeOutcomeListener(id) } }
        return stream
    }

    /// The counts now, then after every change, for an app's UI.
    public func countUpdates() async -> AsyncStream<OutboxCounts> {
        let (stream, continuation) = AsyncStream.makeStream(of: OutboxCounts.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        countListeners[id] = continuation
        continuation.onTermination = { _ in Task { await self.removeCountListener(id) } }
        if let counts = try? await store.counts() { continuation.yield(counts) }
        return stream
    }

    private func removeOutcomeListener(_ id: UUID) { outcomeListeners[id] = nil }
    private func removeCountListener(_ id: UUID) { countListeners[id] = nil }

    // MARK: Cancelling and removing

    /// Cancels the pending (or parked) call with `id`: it will not be sent. A call already in flight
    /// may still reach the server; if it is accepted, the entry ends delivered.
    ///
    /// - Returns: whether a call was cancelled.
    @discardableResult
    public func cancel(id: String) async throws(SwitchyardError) -> Bool {
        try await cancel(.id(id)) > 0
    }

    /// Cancels every pending or parked call tagged `tag`; returns how many.
    @discardableResult
    public func cancel(tagged tag: RequestTag) async throws(SwitchyardError) -> Int {
        try await cancel(.tag(tag))
    }

    /// Deletes the entry with `id` from the store, whatever its state (a delivered call's outcome,
    /// a dead letter once the app has dealt with it); a pending one is not sent.
    @discardableResult
    public func remove(id: String) async throws(SwitchyardError) -> Bool {
        let removed = try await store.delete(.id(id)) > 0
        await changed()
        return removed
    }

    /// Deletes every entry tagged `tag`, whatever its state; returns how many.
    @discardableResult
    public func remove(tagged tag: RequestTag) async throws(SwitchyardError) -> Int {
        let removed = try await store.delete(.tag(tag))
        await changed()
        return removed
    }

    private func cancel(_ filter: EntryFilter) async throws(SwitchyardError) -> Int {
        let now = configuration.now()
        let ids = try await ids(matching: filter, states: [.pending, .parked])
        var cancelled = try await store.move(filter, from: .pending, to: .cancelled, at: now)
        cancelled += try await store.move(filter, from: .parked, to: .cancelled, at: now)
        await announce(ids)
        await changed()
        return cancelled
    }

    // MARK: Sessions

    /// Ends `account`'s session in the outbox: its pending calls are dropped (cancelled), or, when
    /// `parking`, held back until ``beginSession(account:)`` names the same account — another user's
    /// session never sends them. A call of the account in flight is cancelled; it may have reached
    /// the server already, and a parked one carries the same `Idempotency-Key` when it goes.
    ///
    /// Call it beside ``APIClient/endSession(for:account:)``, which ends the pipeline's side.
    public func endSession(account: String, parking: Bool = false) async throws(SwitchyardError) {
        let key = try store.accountKey(account)
        let ids = parking ? [] : try await ids(matching: .account(key), states: [.pending])
        _ = try await store.move(.account(key), from: .pending, to: parking ? .parked : .cancelled, at: configuration.now())
        for (queue, worker) in workers where worker.inFlight && worker.inFlightAccount == account {
            worker.task.cancel()
            workers[queue] = nil
        }
        await announce(ids)
        await changed()
        if running { await startWorkers() }
    }

    /// Begins `account`'s session again: its parked calls become pending and are sent.
    public func beginSession(account: String) async throws(SwitchyardError) {
        _ = try await store.move(.account(try store.accountKey(account)), from: .parked, to: .pending, at: configuration.now())
        await changed()
        if running { await startWorkers() }
    }

    private func ids(matching filter: EntryFilter, states: Set<OutboxEntry.State>) async throws(SwitchyardError) -> [String] {
        guard !outcomeListeners.isEmpty else { return [] }
        let (clause, bind) = filter.clause
        let list = states.map { String($0.rawValue) }.joined(separator: ",")
        return try await store.rows("SELECT id FROM entries WHERE state IN (\(list)) AND \(clause)", [bind])
            .compactMap { $0.column("id")?.string }
    }

    // MARK: Draining

    private func startWorkers() async {
        guard running, let queues = try? await store.pendingQueues() else { return }
        for queue in queues where workers[queue] == nil { startWorker(for: queue) }
    }

    private func startWorker(for queue: String) {
        let token = UUID()
        let task = Task { await self.work(queue: queue, token: token) }
        workers[queue] = Worker(token: token, task: task)
    }

    /// Sends `queue`'s calls one at a time until it has none pending or the worker is cancelled.
    private func work(queue: String, token: UUID) async {
        defer {
            if workers[queue]?.token == token { workers[queue] = nil }
            resumeWaiters()
        }
        // The connectivity signal's return count before the last attempt, when that attempt failed
        // to connect: a return since then sends the head at once, whatever its backoff.
        var connectionFailedSince: UInt64?
        while running, !Task.isCancelled {
            let head: QueuedHead?
            do {
                head = try await store.head(of: queue)
            } catch {
                client.logger.error("the outbox cannot read its queue", metadata: ["code": "\(error.code)"])
                return
            }
            guard let head else { return }
            let now = configuration.now()
            if head.nextAttemptAt > now {
                let backoff = Duration.seconds(head.nextAttemptAt.timeIntervalSince(now))
                guard let since = connectionFailedSince else {
                    try? await Task.sleep(for: backoff)
                    continue
                }
                await client.connectivity.waitForReturn(since: since, upTo: backoff)
                // The backoff passed (or the worker was stopped): look at the head again.
                guard client.connectivity.returnCount != since else { continue }
            }
            if Duration.seconds(now.timeIntervalSince(head.enqueuedAt)) > configuration.maxAge {
                let error = SwitchyardError(code: .expired, message: "the queued call grew older than the outbox's maximum age")
                guard await finish(head, .dead(error)) else { return }
                continue
            }
            if workers[queue]?.token == token {
                workers[queue]?.inFlight = true
                workers[queue]?.inFlightAccount = Self.account(of: head)
            }
            let returns = client.connectivity.returnCount
            let attempt = await OutboxAttempt.send(head, client: client, deadline: configuration.attemptDeadline)
            connectionFailedSince = attempt.failedToConnect ? returns : nil
            if workers[queue]?.token == token { workers[queue]?.inFlight = false }
            if case .cancelled = attempt { return }
            // An outcome the store cannot record ends the worker: the call stays pending, to be sent
            // again with its key, rather than resent at once in a loop.
            guard await finish(head, attempt) else { return }
        }
    }

    private static func account(of head: QueuedHead) -> String? {
        (try? JSONDecoder().decode(StoredCall.self, from: head.payload))?.account
    }

    /// Records an attempt's outcome in the store, then tells the listeners; `false` when the store
    /// could not record it.
    @discardableResult
    private func finish(_ head: QueuedHead, _ attempt: OutboxAttempt) async -> Bool {
        let now = configuration.now()
        do {
            switch attempt {
            case .delivered(let status, let body):
                try await store.finish(
                    head.id,
                    state: .delivered,
                    status: status,
                    outcome: StoredOutcome(body: body),
                    attempts: head.attempts + 1,
                    at: now
                )
            case .dead(let error):
                let outcome = StoredOutcome(errorModule: error.code.module, errorName: error.code.name, message: error.message)
                try await store.finish(
                    head.id,
                    state: .deadLetter,
                    status: error.status?.code,
                    outcome: outcome,
                    attempts: head.attempts + 1,
                    at: now
                )
            case .transient(_, let retryAfter):
                let attempts = head.attempts + 1
                let delay = retryAfter.map { min($0, configuration.retryPolicy.maxDelay) } ?? jittered(attempts)
                try await store.reschedule(head.id, attempts: attempts, next: now.addingTimeInterval(delay.timeInterval))
            case .cancelled:
                return true
            }
        } catch {
            client.logger.error("the outbox cannot record an outcome", metadata: ["code": "\(error.code)"])
            return false
        }
        if case .transient = attempt {
            await changed()
        } else {
            await announce([head.id])
            await changed()
        }
        return true
    }

    /// The retry policy's backoff before retry number `retry`, with its jitter.
    private func jittered(_ retry: Int) -> Duration {
        let policy = configuration.retryPolicy
        let delay = policy.backoff(beforeRetry: retry)
        guard policy.jitter > 0, delay > .zero else { return delay }
        return delay * (1 - policy.jitter * Double.random(in: 0...1))
    }

    /// Sends the entries `ids` to the outcome listeners.
    private func announce(_ ids: [String]) async {
        guard !outcomeListeners.isEmpty else { return }
        for id in ids {
            guard let entry = try? await store.entries(state: nil, id: id).first else { continue }
            for listener in outcomeListeners.values { listener.yield(entry) }
        }
    }

    /// Tells the count listeners and the drain waiters that something changed.
    private func changed() async {
        if !countListeners.isEmpty {
            // Reads overlap (the actor is reentrant): only the latest read started is yielded, so
            // an older count never arrives after a newer one.
            countReads += 1
            let read = countReads
            if let counts = try? await store.counts(), read > countsYielded {
                countsYielded = read
                for listener in countListeners.values { listener.yield(counts) }
            }
        }
        resumeWaiters()
    }

    private func resumeWaiters() {
        changeCount += 1
        let waiters = changeWaiters
        changeWaiters = []
        for waiter in waiters { waiter.resume() }
    }
}

extension Duration {
    /// The duration in seconds.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

import Foundation
import NIOCore
import SQLiteNIO
import Switchyard
import SwitchyardSupport

/// The outbox's SQLite file: one row per queued call, written by single statements so that every
/// change is atomic on its own and durable when it returns (WAL journal, `synchronous=FULL`).
///
/// The file and its journal are private to the user: the directory is created `0700` and the file
/// `0600` before SQLite opens it (SQLite gives its `-wal` and `-shm` files the database file's mode).
final class OutboxStore: Sendable {
    /// The schema this version writes; a file with a higher `user_version` came from a newer version.
    static let schemaVersion = 1
    /// `PRAGMA application_id`: "SYOB", so a SQLite file of another program is never taken for a store.
    static let applicationID: Int32 = 0x5359_4F42

    let connection: SQLiteConnection
    let sealing: CacheSealing?
    let url: URL

    private init(connection: SQLiteConnection, sealing: CacheSealing?, url: URL) {
        self.connection = connection
        self.sealing = sealing
        self.url = url
    }

    /// Opens (creating when missing) the store at `url`, checking that it is a sound store of a
    /// version this one can read.
    ///
    /// - Parameter maxPageCount: a limit on the file's size in pages, for tests of a full disk.
    static func open(at url: URL, sealing: CacheSealing?, maxPageCount: Int? = nil) async throws(SwitchyardError) -> OutboxStore {
        do {
            try PrivateFiles.createDirectory(at: url.deletingLastPathComponent())
            if !FileManager.default.fileExists(atPath: url.path) {
                try PrivateFiles.create(url, replacing: false).close()
            }
        } catch {
            throw SwitchyardError(code: .storage, message: "cannot create the outbox store's file", underlyingError: error)
        }
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: url.path))
        } catch {
            throw StoreFailure.error(error, doing: "open the outbox store")
        }
        let store = OutboxStore(connection: connection, sealing: sealing, url: url)
        do {
            try await store.prepare(maxPageCount: maxPageCount)
        } catch {
            try? await connection.close()
            throw error
        }
        return store
    }

    /// Checks the file and creates the schema of a new one.
    private func prepare(maxPageCount: Int?) async throws(SwitchyardError) {
        try await run("PRAGMA busy_timeout = 5000")
        let check = try await rows("PRAGMA quick_check")
        guard check.first?.column("quick_check")?.string == "ok" else {
            throw SwitchyardError(code: .storeCorrupt, message: "the outbox store failed SQLite's integrity check; it was left as it is")
        }
        let version = try await rows("PRAGMA user_version").first?.column("user_version")?.integer ?? 0
        let application = try await rows("PRAGMA application_id").first?.column("application_id")?.integer ?? 0
        if version > Self.schemaVersion {
            throw SwitchyardError(
                code: .storeVersion,
                message: "the outbox store was written by a newer version (schema \(version), this one reads \(Self.schemaVersion))"
            )
        }
        if application != 0, application != Int(Self.applicationID) {
            throw SwitchyardError(code: .storeCorrupt, message: "the file is a SQLite database of another program, not an outbox store")
        }
        try await run("PRAGMA journal_mode = WAL")
        try await run("PRAGMA synchronous = FULL")
        if let maxPageCount { try await run("PRAGMA max_page_count = \(maxPageCount)") }
        if version == 0 {
            try await run(
                """
                CREATE TABLE IF NOT EXISTS entries (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    idempotency_key TEXT NOT NULL,
                    queue TEXT NOT NULL,
                    account TEXT,
                    tags TEXT NOT NULL,
                    state INTEGER NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    enqueued_at REAL NOT NULL,
                    next_attempt_at REAL NOT NULL,
                    payload BLOB NOT NULL,
                    status INTEGER,
                    outcome BLOB,
                    finished_at REAL
                )
                """
            )
            try await run("CREATE INDEX IF NOT EXISTS entries_by_queue ON entries (queue, state, seq)")
            // Finding pending work reads the pending entries only, however many outcomes the store keeps.
            try await run("CREATE INDEX IF NOT EXISTS entries_by_state ON entries (state, queue)")
            try await run("PRAGMA application_id = \(Self.applicationID)")
            try await run("PRAGMA user_version = \(Self.schemaVersion)")
        }
    }

    /// Closes the file.
    func close() async {
        try? await connection.close()
    }

    // MARK: Statements

    /// Runs a statement that returns no rows.
    func run(_ sql: String, _ binds: [SQLiteData] = []) async throws(SwitchyardError) {
        _ = try await rows(sql, binds)
    }

    /// Runs a statement and returns its rows.
    func rows(_ sql: String, _ binds: [SQLiteData] = []) async throws(SwitchyardError) -> [SQLiteRow] {
        do {
            return try await connection.query(sql, binds)
        } catch {
            throw StoreFailure.error(error, doing: "use the outbox store")
        }
    }

    /// The number of rows the last statement changed.
    func changes() async throws(SwitchyardError) -> Int {
        try await rows("SELECT changes() AS n").first?.column("n")?.integer ?? 0
    }

    // MARK: Sealing

    /// Bytes as stored: sealed with the app's sealing when one is set.
    func seal(_ data: Data) throws(SwitchyardError) -> Data {
        guard let sealing else { return data }
        do {
            return try sealing.seal(data)
        } catch {
            throw SwitchyardError(code: .storage, message: "cannot seal an outbox entry", underlyingError: error)
        }
    }

    /// Stored bytes opened.
    func open(_ data: Data) throws(SwitchyardError) -> Data {
        guard let sealing else { return data }
        do {
            return try sealing.open(data)
        } catch {
            throw SwitchyardError(
                code: .storeCorrupt,
                message: "an outbox entry does not open with the sealing key",
                underlyingError: error
            )
        }
    }

    /// What the store keeps of an account: a keyed digest when the sealing has one, so the file does
    /// not name the user; the account itself otherwise (the file is private to the user).
    func accountKey(_ account: String?) throws(SwitchyardError) -> SQLiteData {
        guard let account else { return .null }
        guard let digest = sealing?.digest else { return .text(account) }
        do {
            return .text(try digest(Data(account.utf8)).base64EncodedString())
        } catch {
            throw SwitchyardError(code: .storage, message: "cannot digest an outbox entry's account", underlyingError: error)
        }
    }
}

extension SQLiteData {
    /// A blob of `data`.
    static func bytes(_ data: Data) -> SQLiteData { .blob(ByteBuffer(bytes: data)) }

    /// The blob's bytes.
    var bytes: Data? { blob.map { Data($0.readableBytesView) } }
}

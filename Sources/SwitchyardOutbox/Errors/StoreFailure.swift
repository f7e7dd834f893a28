import SQLiteNIO
import Switchyard

/// Turns what SQLite reports into the outbox's typed errors.
enum StoreFailure {
    /// The typed error for `error`, thrown while trying to `action`.
    static func error(_ error: any Error, doing action: String) -> SwitchyardError {
        if let error = error as? SwitchyardError { return error }
        guard let failure = error as? SQLiteError else {
            return SwitchyardError(code: .storage, message: "cannot \(action)", underlyingError: error)
        }
        switch failure.reason {
        case .full:
            return SwitchyardError(
                code: .storeFull,
                message: "cannot \(action): the disk is full; nothing already stored was lost",
                underlyingError: failure
            )
        case .corrupt, .notADatabase, .corruptIndex, .corruptVirtualTable, .corruptSequenceSchema:
            return SwitchyardError(
                code: .storeCorrupt,
                message: "cannot \(action): the file is not a sound SQLite database; it was left as it is",
                underlyingError: failure
            )
        default:
            return SwitchyardError(code: .storage, message: "cannot \(action) (SQLite: \(failure.reason))", underlyingError: failure)
        }
    }
}

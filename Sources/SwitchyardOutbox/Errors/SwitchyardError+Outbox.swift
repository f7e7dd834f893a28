public import Switchyard

extension SwitchyardError.Code {
    /// The outbox's file is not a sound store: malformed, truncated, another program's database, or
    /// an entry that does not open with the sealing key. The file is left as it is.
    public static let storeCorrupt = SwitchyardError.Code("storeCorrupt")
    /// The disk (or the store's size limit) is full: the write was not made, and nothing already
    /// stored was lost.
    public static let storeFull = SwitchyardError.Code("storeFull")
    /// The outbox's file was written by a newer version of the library, whose schema this one cannot read.
    public static let storeVersion = SwitchyardError.Code("storeVersion")
    /// A queued call grew older than the outbox's maximum age before it could be sent.
    public static let expired = SwitchyardError.Code("expired")
    /// A queued upload's file is gone or no longer matches the checksum taken when it was queued.
    public static let fileChanged = SwitchyardError.Code("fileChanged")
}

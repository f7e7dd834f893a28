/// Where a ``ServiceRegistry`` persists the ``EnvironmentSelection``.
///
/// Use ``FileEnvironmentStore`` (a small JSON file, by default in the platform's application-support
/// directory), ``InMemoryEnvironmentStore``, or your own (user defaults, a keychain item, a settings
/// service).
public protocol EnvironmentStore: Sendable {
    /// Returns the stored selection, `nil` when nothing is stored.
    ///
    /// - Throws: when the stored data cannot be read or is corrupt; the registry then ignores it.
    func load() throws -> EnvironmentSelection?

    /// Stores a selection, replacing what was stored.
    ///
    /// - Throws: when the selection cannot be written.
    func save(_ selection: EnvironmentSelection) throws
}

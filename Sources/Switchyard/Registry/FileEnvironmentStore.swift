public import Foundation

/// An ``EnvironmentStore`` that keeps the selection in a small JSON file, written atomically.
///
/// ```swift
/// let store = FileEnvironmentStore.applicationSupport()   // …/Application Support/<app>/Switchyard/environment.json
/// let store = FileEnvironmentStore(fileURL: URL(filePath: "/tmp/env.json"))
/// ```
public struct FileEnvironmentStore: EnvironmentStore {
    /// The file the selection is kept in.
    public let fileURL: URL

    /// Creates a store over a file; the file and its directory are created on the first save.
    public init(fileURL: URL) { self.fileURL = fileURL }

    /// A store in the platform's application-support directory (`~/Library/Application Support` on
    /// Apple platforms, `$XDG_DATA_HOME` or `~/.local/share` on Linux), in a folder of its own per app
    /// so that two apps never switch each other's environment.
    ///
    /// - Parameters:
    ///   - app: the app's folder; the bundle identifier, or the process name where there is none, by default.
    ///   - fileName: the file's name.
    public static func applicationSupport(app: String? = nil, fileName: String = "environment.json") -> FileEnvironmentStore {
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        let folder = app ?? Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
        return FileEnvironmentStore(
            fileURL: base.appendingPathComponent(folder, isDirectory: true)
                .appendingPathComponent("Switchyard", isDirectory: true)
                .appendingPathComponent(fileName)
        )
    }

    /// Reads the file; `nil` when it does not exist.
    ///
    /// - Throws: ``SwitchyardError/Code/storage`` when it exists but cannot be read or decoded.
    public func load() throws -> EnvironmentSelection? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        do {
            let data = try Data(contentsOf: fileURL)
            return try JSONDecoder().decode(EnvironmentSelection.self, from: data)
        } catch {
            throw SwitchyardError(code: .storage, message: "the environment file \(fileURL.path) cannot be read", underlyingError: error)
        }
    }

    /// Writes the file atomically (a temporary file, then a rename).
    ///
    /// - Throws: ``SwitchyardError/Code/storage`` when it cannot be written.
    public func save(_ selection: EnvironmentSelection) throws {
        do {
            try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try encoder.encode(selection).write(to: fileURL, options: .atomic)
        } catch {
            throw SwitchyardError(code: .storage, message: "the environment file \(fileURL.path) cannot be written", underlyingError: error)
        }
    }
}

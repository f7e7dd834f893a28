package import Foundation

/// The files and directories Switchyard writes on the user's behalf — cache entries, upload staging
/// files, partial downloads and their resume records — created private to the user from the start:
/// files `0600`, directories `0700`, whatever the process's umask. Nothing is created with a wider
/// mode and tightened afterwards, so there is no moment at which another user could open it.
package enum PrivateFiles {
    /// The mode of every file Switchyard creates: read and write for the user only.
    package static let fileMode: mode_t = 0o600
    /// The mode of every directory Switchyard creates: the user only.
    package static let directoryMode: mode_t = 0o700

    /// Creates the directory at `url` (and any missing parents) private to the user; an existing
    /// directory the user owns is tightened to `0700` (one they do not own is used as it is: the
    /// files in it are private all the same).
    package static func createDirectory(at url: URL) throws {
        try FileManager.default.createDirectory(
            at: url,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: NSNumber(value: directoryMode)]
        )
        _ = chmod(url.path, directoryMode)
    }

    /// Creates a new, empty file at `url` private to the user and opens it for writing. When
    /// `replacing`, whatever was at `url` is removed first; otherwise an existing file is an error.
    /// `O_EXCL` means a file (or a link) that appears at `url` in the meantime is never followed.
    package static func create(_ url: URL, replacing: Bool) throws -> FileHandle {
        if replacing, unlink(url.path) != 0, errno != ENOENT { throw posixError(url) }
        let descriptor = open(url.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw posixError(url) }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Opens the existing file at `url` for writing, tightened to `0600` when the user owns it (a
    /// file an earlier version left with a wider mode becomes private before another byte is written).
    package static func openExisting(_ url: URL) throws -> FileHandle {
        let descriptor = open(url.path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw posixError(url) }
        _ = fchmod(descriptor, fileMode)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Writes `data` to a new file at `url`, private to the user; an existing file is an error.
    package static func write(_ data: Data, toNew url: URL) throws {
        let handle = try create(url, replacing: false)
        do {
            try handle.write(contentsOf: data)
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    /// Replaces the file at `url` with `data` atomically: written to a private temporary file beside
    /// it, then renamed into place, so a reader sees the old content or the new, and the temporary
    /// file never outlives a failure.
    package static func replace(_ url: URL, with data: Data) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try write(data, toNew: temporary)
            guard rename(temporary.path, url.path) == 0 else { throw posixError(url) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    private static func posixError(_ url: URL) -> any Error {
        let code = errno
        return NSError(
            domain: NSPOSIXErrorDomain,
            code: Int(code),
            userInfo: [NSFilePathErrorKey: url.path, NSLocalizedDescriptionKey: String(cString: strerror(code))]
        )
    }
}

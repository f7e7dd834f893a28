import Foundation

/// The permission bits (`0o777` part of the mode) of the file or directory at `url`.
func permissions(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return ((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o777
}

/// Sets the process's umask to the usual `022`, under which a file created with the default mode
/// is `0644` (readable by everyone): a test that finds `0600` then proves the code asked for it.
func useTheUsualUmask() {
    _ = umask(0o022)
}

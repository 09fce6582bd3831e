import Foundation

/// The paths one keyring file uses: the file, its folder, its lock file and its temporary file.
struct StorePaths: Sendable {
    let file: String
    let folder: String
    /// Beside the file and never replaced, so `flock` on it means something (see `FileLock`).
    let lock: String
    /// The next version is written here, then renamed over `file`. Only the holder of
    /// the lock writes it, so one fixed name is enough and a crash leaves at most one behind.
    let temporary: String

    init(_ url: URL) {
        let file = url.standardizedFileURL.path
        self.file = file
        folder = (file as NSString).deletingLastPathComponent
        lock = file + ".lock"
        temporary = file + ".tmp"
    }
}

import Foundation

/// The advisory lock (`flock`) that writers of one keyring file take, in any process.
///
/// It lives on a separate, never-replaced file beside the keyring (`…​.lock`),
/// because the keyring file itself is replaced by rename on every write, and a
/// lock on a replaced file protects nothing. Each acquisition opens the lock
/// file anew, so two threads of one process exclude each other too.
enum FileLock {
    /// Runs `body` while holding the exclusive lock of the keyring file at `paths`.
    /// - Throws: `KeyringError.timedOut` when the lock is not free within `timeout`, or what `body` throws.
    static func withExclusiveLock<Result>(_ paths: StorePaths, timeout: Duration, _ body: () throws -> Result) throws -> Result {
        let path = paths.lock
        let descriptor = try POSIX.open(path, O_RDWR | O_CREAT, mode: FilePermissions.fileMode)
        defer { close(descriptor) }  // closing releases the lock
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.microseconds(200)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw POSIX.failure("flock \(path)", errno)
            }
            try OperationCancellation.check()
            guard ContinuousClock.now < deadline else {
                let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
                throw KeyringError.timedOut(operation: "a write to \(paths.file) while another writer held its lock", seconds: seconds)
            }
            // Polling rather than a blocking flock keeps the timeout; the pause grows
            // so a long wait costs little CPU, and stays short so a free lock is taken soon.
            Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18)
            pause = min(pause * 2, .milliseconds(10))
        }
        return try body()
    }
}

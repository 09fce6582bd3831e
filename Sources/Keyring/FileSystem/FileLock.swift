#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// The advisory lock (`flock`) that writers of one private file take, in any process.
///
/// It lives on a separate, never-replaced file beside the file it guards,
/// because that file is replaced by rename on every write, and a lock on a
/// replaced file protects nothing. Each acquisition opens the lock file anew, so
/// two threads of one process exclude each other too. The lock file is opened
/// without following a link, so a link planted in its place makes nothing elsewhere.
package enum FileLock {
    /// Runs `body` while holding the exclusive lock of the file at `paths`.
    /// - Parameters:
    ///   - operation: what waited, as ``KeyringError/timedOut(operation:seconds:)`` names it.
    /// - Throws: ``KeyringError/timedOut(operation:seconds:)`` when the lock is not free within `timeout`,
    ///   `.insecurePermissions` when the lock file is a symbolic link, or what `body` throws.
    package static func withExclusiveLock<Result>(
        _ paths: StorePaths,
        timeout: Duration,
        operation: @autoclosure () -> String,
        _ body: () throws -> Result
    ) throws -> Result {
        try withExclusiveLock(at: paths.lock, timeout: timeout, operation: operation(), body)
    }

    /// Runs `body` while holding the exclusive lock of the lock file at `path`, made (0600) when missing.
    /// - Throws: as `withExclusiveLock(_:timeout:operation:_:)`.
    package static func withExclusiveLock<Result>(
        at path: String,
        timeout: Duration,
        operation: @autoclosure () -> String,
        _ body: () throws -> Result
    ) throws -> Result {
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
                throw KeyringError.timedOut(operation: operation(), seconds: timeout.inSeconds)
            }
            // Polling rather than a blocking flock keeps the timeout; the pause grows
            // so a long wait costs little CPU, and stays short so a free lock is taken soon.
            usleep(useconds_t(pause / .microseconds(1)))
            pause = min(pause * 2, .milliseconds(10))
        }
        return try body()
    }
}

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
    ///   - call: the call that waits: the wait ends at its deadline, and when it is cancelled.
    ///   - operation: what waited, as ``KeyringError/timedOut(operation:seconds:)`` names it.
    /// - Throws: ``KeyringError/timedOut(operation:seconds:)`` (with the call's whole bound) when the lock is
    ///   not free before the deadline, `CancellationError` when the call is cancelled while it waits,
    ///   `.insecurePermissions` when the lock file is a symbolic link, or what `body` throws.
    package static func withExclusiveLock<Result>(
        _ paths: StorePaths,
        call: StoreCall,
        operation: @autoclosure () -> String,
        _ body: () throws -> Result
    ) throws -> Result {
        try withExclusiveLock(at: paths.lock, call: call, operation: operation(), body)
    }

    /// Runs `body` while holding the exclusive lock of the lock file at `path`, made (0600) when missing.
    /// - Throws: as `withExclusiveLock(_:call:operation:_:)`.
    package static func withExclusiveLock<Result>(
        at path: String,
        call: StoreCall,
        operation: @autoclosure () -> String,
        _ body: () throws -> Result
    ) throws -> Result {
        let descriptor = try POSIX.open(path, O_RDWR | O_CREAT, mode: FilePermissions.fileMode)
        defer { close(descriptor) }  // closing releases the lock
        var pause = Duration.microseconds(200)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw POSIX.failure("flock \(path)", errno)
            }
            try call.checkCancellation()
            guard !call.deadline.hasPassed else {
                throw call.deadline.timedOut(operation())
            }
            // Polling rather than a blocking flock keeps the deadline; the pause grows
            // so a long wait costs little CPU, and stays short so a free lock is taken soon.
            usleep(useconds_t(min(pause, call.deadline.remaining) / .microseconds(1)))
            pause = min(pause * 2, .milliseconds(10))
        }
        return try body()
    }
}

import Foundation
import Glibc
import Keyring

/// An advisory lock (`flock`) on a file of its own, so that writers in any
/// process, and several `Session`s in one process, take turns.
///
/// The lock is on a separate file because the state file itself is replaced
/// by rename on every write.
enum FileLock {
    /// Runs `body` holding the exclusive lock on `path`, waiting at most `timeout` for it.
    /// - Throws: `KeyringError.timedOut` when another holder keeps it longer, or what `body` throws.
    static func withExclusiveLock<Result>(
        path: String,
        timeout: Duration,
        _ body: () throws -> Result
    ) throws -> Result {
        let descriptor = try POSIX.call("cannot open the lock file \(path)") {
            open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        }
        defer { close(descriptor) }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK else { throw POSIX.error("cannot lock \(path)", code: code) }
            try OperationCancellation.check()
            guard clock.now < deadline else {
                let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
                throw KeyringError.timedOut(operation: "locking \(path)", seconds: seconds)
            }
            usleep(5_000)
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}

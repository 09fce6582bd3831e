#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// The lock that keeps the writes of one service's records to one process at a
/// time, across every process of the user: an `flock` on a file in the user's
/// runtime folder (`$XDG_RUNTIME_DIR/swift-keyring/`, private to the user and
/// emptied at logout), else in `/run/user/UID/swift-keyring/`, else in
/// `/tmp/swift-keyring-UID/`, one file per service.
///
/// Daemons serialize every call anyway, so the lock costs writers little, and it
/// keeps two of our processes from racing over the same items. KeePassXC 2.7.4
/// dies when two clients delete one item at once: each `Delete` gets a prompt,
/// the first prompt removes the entry, and the second, queued before the item
/// object is gone, dereferences the missing entry (a segmentation fault in
/// `Collection::doDeleteEntry` from `DeleteItemPrompt::promptSync`; two racing
/// `remove`s of one key, or two `set`s deleting the same duplicate, did it in
/// 1 to 8 s under eight loops). Under the lock the second process searches
/// after the first deleted, and finds nothing to delete.
///
/// Within a process, `SecretServiceStore` serializes its writes itself; this
/// lock opens its file anew on every acquisition, so threads exclude each other too.
/// Waiting for it counts against the operation's deadline. A process without
/// `XDG_RUNTIME_DIR` (cron, `sudo -u`, a container's shell) still takes the lock, in
/// the first of the other folders that is the user's own private one: with no lock at
/// all, two such processes racing to replace one record killed KeePassXC in 4 of 4 of
/// its lifetimes (issue 34). Only when none of them is usable (another user holds
/// `/tmp/swift-keyring-UID`) do writes go on without it: the lock guards against a
/// daemon's bug, and a store that refused to write for want of it would fail people
/// for nothing.
struct SecretServiceWriteLock: Sendable {
    /// The folder the lock files live in; `nil` when there is no usable runtime folder.
    private let folder: String?

    init(environment: [String: String]) {
        // Each folder must be this user's own private one, judged on the folder itself
        // (PrivateFolder): in one others may write, a planted link or folder of theirs could
        // pass a check by path and let them hold the lock.
        let user = geteuid()
        var candidates: [String] = []
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), PrivateFolder.problem(at: runtime) == nil {
            candidates.append(PathName.join(runtime, "swift-keyring"))
        }
        if PrivateFolder.problem(at: "/run/user/\(user)") == nil {
            candidates.append("/run/user/\(user)/swift-keyring")
        }
        candidates.append("/tmp/swift-keyring-\(user)")
        folder = candidates.first { candidate in
            // Made 0700 when missing (mkdir never follows a link); whatever is there is then judged.
            _ = mkdir(candidate, 0o700)
            return PrivateFolder.problem(at: candidate) == nil
        }
    }

    /// Runs `body` holding the lock of `service`'s writes.
    /// - Throws: `KeyringError.timedOut` when another process holds the lock until `deadline`, or what `body` throws.
    func run<Result>(service: String, _ operation: String, deadline: Deadline, _ body: () throws -> Result) throws -> Result {
        guard let folder else { return try body() }
        let path = PathName.join(folder, "secret-service-\(Self.fileName(for: service)).lock")
        let waiting = "\(operation) (waiting for another process's write)"
        let call = StoreCall(deadline: deadline, cancellation: OperationCancellation.current)
        return try FileLock.withExclusiveLock(at: path, call: call, operation: waiting, body)
    }

    /// A name for `service` that any text can have: its FNV-1a hash in hex. Two services
    /// sharing a hash only share a lock, which costs some waiting and nothing else.
    private static func fileName(for service: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in service.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

import Foundation
import Testing

@testable import SwiftKeyring

/// The Secret Service write lock without `XDG_RUNTIME_DIR` (cron, `sudo -u`, a container's
/// shell): it is still taken, in a private folder of the user's own, since with no lock two
/// processes racing to replace one record killed KeePassXC 2.7.4 in 4 of 4 of its lifetimes.
@Suite("The Secret Service write lock")
struct SecretServiceWriteLockTests {
    @Test("Without XDG_RUNTIME_DIR a write still waits for another's: the lock is taken elsewhere")
    func lockWithoutRuntimeFolder() throws {
        let service = "lock-test-\(UUID().uuidString)"
        let holder = SecretServiceWriteLock(environment: [:])
        let waiter = SecretServiceWriteLock(environment: [:])
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? holder.run(service: service, "hold the lock", deadline: Deadline(.seconds(60))) {
                held.signal()
                release.wait()
            }
            finished.signal()
        }
        try #require(held.wait(timeout: .now() + 30) == .success)
        // While the other holds it, this write cannot start: it ends at its deadline, saying why.
        #expect {
            try waiter.run(service: service, "write a record", deadline: Deadline(.milliseconds(300))) {}
        } throws: { error in
            (error as? KeyringError)?.code == .timedOut
        }
        release.signal()
        #expect(finished.wait(timeout: .now() + 30) == .success)
        // Once it is free, the write runs.
        var ran = false
        try waiter.run(service: service, "write a record", deadline: Deadline(.seconds(30))) { ran = true }
        #expect(ran)
        // The lock's folder is this user's own and private.
        let folders = ["/run/user/\(geteuid())/swift-keyring", "/tmp/swift-keyring-\(geteuid())"]
        #expect(folders.contains { PrivateFolder.problem(at: $0) == nil })
    }
}

import Foundation
import SwiftKeyring
import Synchronization

// Run by `AsyncPoolTests` with LIBDISPATCH_COOPERATIVE_POOL_STRICT=1, which
// must be in the environment before the process starts, so it runs here:
//
//   KeyringTestWorker async-progress DAEMON-PID async|sync
//
// Stores a record in the Secret Service the environment names, stops its
// daemon (SIGSTOP), starts eight lookups from tasks (through the async face, or,
// for the control, the sync one called from the tasks) and a task that counts
// every 2 ms; samples the counter twice while the lookups wait, resumes the
// daemon (SIGCONT), waits for the lookups, and prints one line:
//
//   calls=8 pending=8,8 counter=C1,C2 ok=N timedOut=N other=N
enum AsyncProgressCheck {
    private static let counter = Atomic<Int>(0)
    private static let stopCounting = Atomic<Bool>(false)
    private static let ok = Atomic<Int>(0)
    private static let timedOut = Atomic<Int>(0)
    private static let other = Atomic<Int>(0)

    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2, let daemon = pid_t(arguments[0]), ["async", "sync"].contains(arguments[1]) else {
            FileHandle.standardError.write(Data("usage: KeyringTestWorker async-progress DAEMON-PID async|sync\n".utf8))
            return 64
        }
        let useAsync = arguments[1] == "async"
        do {
            let keyring = try Keyring(service: "test.async-progress", store: SecretServiceStore(timeout: .seconds(5)))
            try keyring.set(
                Credentials(username: "alice", password: "pw", url: URL(string: "https://example.com")!), forKey: "work")
            // At least eight, and never fewer than the pool has threads, so the control can fill it.
            let calls = max(8, ProcessInfo.processInfo.activeProcessorCount)
            kill(daemon, SIGSTOP)
            Task.detached {
                while !stopCounting.load(ordering: .relaxed) {
                    counter.add(1, ordering: .relaxed)
                    try? await Task.sleep(for: .milliseconds(2))
                }
            }
            for _ in 0..<calls {
                Task.detached {
                    do {
                        _ = useAsync ? try await keyring.credentials(forKey: "work") : try blockingLookup(keyring)
                        ok.add(1, ordering: .relaxed)
                    } catch KeyringError.Code.timedOut {
                        timedOut.add(1, ordering: .relaxed)
                    } catch {
                        FileHandle.standardError.write(Data("lookup failed: \(error)\n".utf8))
                        other.add(1, ordering: .relaxed)
                    }
                }
            }
            // Sampled from this thread, which is not one of the pool's.
            Thread.sleep(forTimeInterval: 0.1)
            let first = (counter.load(ordering: .relaxed), calls - finished)
            Thread.sleep(forTimeInterval: 0.3)
            let second = (counter.load(ordering: .relaxed), calls - finished)
            kill(daemon, SIGCONT)
            let end = Date(timeIntervalSinceNow: 60)
            while finished < calls && Date() < end {
                Thread.sleep(forTimeInterval: 0.01)
            }
            stopCounting.store(true, ordering: .relaxed)
            print(
                "calls=\(calls) pending=\(first.1),\(second.1) counter=\(first.0),\(second.0) "
                    + "ok=\(ok.load(ordering: .relaxed)) timedOut=\(timedOut.load(ordering: .relaxed)) other=\(other.load(ordering: .relaxed))"
            )
            return 0
        } catch {
            kill(daemon, SIGCONT)
            FileHandle.standardError.write(Data("KeyringTestWorker: \(error)\n".utf8))
            return 1
        }
    }

    private static var finished: Int {
        ok.load(ordering: .relaxed) + timedOut.load(ordering: .relaxed) + other.load(ordering: .relaxed)
    }

    /// The synchronous lookup, called from a task: what the async face exists to avoid.
    private static func blockingLookup(_ keyring: Keyring) throws -> Credentials? {
        try keyring.credentials(forKey: "work")
    }
}

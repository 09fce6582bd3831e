import Foundation
import Synchronization

/// N threads or N processes that really start together.
///
/// `DispatchQueue.concurrentPerform` runs one iteration per core, so on a 2-core machine
/// "eight at once" is two at a time, and the first pair can finish (unlock a collection,
/// make a keyring) before the others begin. Here every thread is a thread of its own, and
/// every one waits on one barrier before its first call; a process waits, before its
/// program starts, on a pipe that the test closes once all of them are waiting. Each
/// function returns how many reached the barrier, for the test to check and print.
package enum AtOnce {
    /// Runs `body(index)` for index 0..<count, each on a thread of its own, all released from
    /// one barrier together once all `count` wait on it (or, when one never arrives, after
    /// `timeout`, with fewer).
    /// - Returns: how many threads were waiting on the barrier when it let them go.
    @discardableResult
    package static func threads(
        _ count: Int, timeout: Duration = .seconds(60), _ body: @escaping @Sendable (Int) -> Void
    ) -> Int {
        let barrier = ThreadBarrier(count: count)
        let done = DispatchGroup()
        for index in 0..<count {
            done.enter()
            Thread.detachNewThread {
                barrier.arrive(timeout: timeout)
                body(index)
                done.leave()
            }
        }
        done.wait()
        return barrier.released
    }

    /// Runs `body(index, launcher)` for index 0..<count on threads of their own; each starts a
    /// process with `launcher` before its command line (`launcher + [program, arguments…]`), which
    /// holds the program back until all `count` processes wait on one pipe, then lets them all go.
    /// - Returns: how many processes were waiting when the pipe was closed.
    @discardableResult
    package static func processes(
        _ count: Int, timeout: Duration = .seconds(60), _ body: @escaping @Sendable (Int, [String]) -> Void
    ) throws -> Int {
        let barrier = try ProcessBarrier(count: count)
        let released = Mutex(0)
        let releaser = DispatchGroup()
        releaser.enter()
        Thread.detachNewThread {
            released.withLock { $0 = barrier.release(timeout: timeout) }
            releaser.leave()
        }
        threads(count, timeout: timeout) { index in body(index, barrier.launcher) }
        releaser.wait()
        return released.withLock { $0 }
    }
}

/// A barrier for `count` threads with a bound on the wait (`pthread_barrier_wait` has none).
private final class ThreadBarrier: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private var arrived = 0
    private var open = false
    /// How many threads were waiting when the barrier opened.
    private(set) var released = 0

    init(count: Int) {
        self.count = count
    }

    /// Waits until all `count` threads have arrived, or `timeout` has passed (the barrier opens then
    /// for every thread, with `released` telling how many had come).
    func arrive(timeout: Duration) {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        if arrived == count, !open {
            open = true
            released = arrived
            condition.broadcast()
        }
        let deadline = Date(timeIntervalSinceNow: Double(timeout.components.seconds))
        while !open {
            if !condition.wait(until: deadline) {
                open = true
                released = arrived
                condition.broadcast()
            }
        }
    }
}

/// The pipe processes wait on: a FIFO this process holds open for writing, and a file each
/// process appends one byte to once it holds the FIFO open for reading. Closing the FIFO's
/// last writer gives every reader end-of-file at the same moment.
private final class ProcessBarrier: Sendable {
    private let folder: URL
    private let ready: URL
    private let descriptor: Int32
    private let count: Int
    /// The command line before the program's: a shell that opens the FIFO, says it is ready,
    /// reads until end-of-file, then becomes the program.
    let launcher: [String]

    init(count: Int) throws {
        self.count = count
        folder = try TemporaryFolder.make()
        let fifo = folder.appendingPathComponent("go")
        ready = folder.appendingPathComponent("ready")
        guard mkfifo(fifo.path, 0o600) == 0, FileManager.default.createFile(atPath: ready.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: fifo.path])
        }
        // Read and write, so the open does not wait for a reader; close-on-exec, so no process
        // started meanwhile keeps a writer open (its readers would never see end-of-file).
        descriptor = open(fifo.path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: fifo.path]) }
        let script = #"exec 3<"$1"; printf x >>"$2"; read -r _ <&3; exec 3<&-; shift 2; exec "$@""#
        launcher = ["/bin/sh", "-c", script, "barrier", fifo.path, ready.path]
    }

    /// Waits until `count` processes are ready (or `timeout` has passed), then closes the FIFO.
    /// - Returns: how many were ready then.
    func release(timeout: Duration) -> Int {
        let deadline = ContinuousClock.now + timeout
        var waiting = 0
        repeat {
            waiting = (try? Data(contentsOf: ready).count) ?? 0
            if waiting >= count { break }
            usleep(5_000)
        } while ContinuousClock.now < deadline
        close(descriptor)
        return waiting
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }
}

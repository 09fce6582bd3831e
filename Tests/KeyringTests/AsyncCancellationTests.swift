import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// What cancelling a task does to the async call it awaits: the call throws
/// `CancellationError` (never a timeout it did not reach), the wait beneath
/// stops, and a cancelled write leaves the old record or the new one.
@Suite("Async calls and cancellation")
struct AsyncCancellationTests {
    @Test(
        "A lookup on a stopped daemon, cancelled after 100 ms, throws CancellationError; the next caller is served once it resumes"
    )
    func cancelledOnStoppedDaemon() async throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        // A bound no load reaches before the cancel (the test's steps share the runtime's threads
        // with the suite's waiting tests), so that only a cancel that did not reach the wait times out.
        let store = try SecretServiceStore(timeout: .seconds(300), environment: sandbox.environment)
        let keyring = try Keyring(service: "test.cancel", store: store)
        let stored = try Samples.credentials("kept")
        try await keyring.set(stored, forKey: "work")

        sandbox.freezeDaemon()
        let lookup = Task { try await keyring.credentials(forKey: "work") }
        try await Task.sleep(for: .milliseconds(100))
        lookup.cancel()
        let outcome = await lookup.result
        sandbox.thawDaemon()

        // Not .timedOut: the bound was never reached; not a record: the daemon was stopped.
        expectCancellationError(outcome)
        #expect(try await keyring.credentials(forKey: "work") == stored)
        #expect(try await keyring.password(forKey: "work") == stored.password)
    }

    @Test(
        "A call from a task cancelled before it starts throws CancellationError and changes nothing",
        arguments: [TestStore.encryptedFile, .secretService])
    func cancelledBeforeStart(store: TestStore) async throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        let old = try Samples.credentials("old")
        try await keyring.set(old, forKey: "work")
        let write = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await keyring.set(try Samples.credentials("new"), forKey: "work")
        }
        expectCancellationError(await write.result)
        let after = try await keyring.credentials(forKey: "work")
        #expect(after == old, "found \(String(describing: after?.username))")
    }

    @Test(
        "A set cancelled at random points, 100 times, leaves exactly one record: the old or the new",
        arguments: [TestStore.encryptedFile, .secretService])
    func cancelledSetLeavesOneRecord(store: TestStore) async throws {
        let keyring = try store.makeKeyring()
        defer { _ = try? keyring.removeAll() }
        var current = try Samples.credentials("user-start")
        try await keyring.set(current, forKey: "work")
        // Cancel anywhere from before the set starts to after it ends: twice the quickest of
        // three sets. The quickest, and at most 100 ms: one set slowed by a loaded machine
        // (another suite holding the write lock) would otherwise make every run sleep for
        // seconds, and the 100 runs take many minutes while the machine sits idle.
        var quickest = Duration.seconds(1)
        for _ in 0..<3 {
            let started = ContinuousClock.now
            try await keyring.set(current, forKey: "work")
            quickest = min(quickest, ContinuousClock.now - started)
        }
        let span = min(max(quickest, .microseconds(200)), .milliseconds(50)) * 2

        for run in 0..<100 {
            // A username of its own each run, so the Secret Service makes a new item and cleans up the old.
            let new = try Samples.credentials("user-\(run)", password: "password \(run)")
            let write = Task { try await keyring.set(new, forKey: "work") }
            try await Task.sleep(for: span * Double.random(in: 0...1))
            write.cancel()
            let outcome = await write.result
            // The keyring's calls run in order, so these see the cancelled set's end.
            let listed = try await keyring.list()
            let now = try await keyring.credentials(forKey: "work")
            switch outcome {
            case .success:
                // A set that returned was not cancelled in time: it must have stored the new record.
                #expect(now == new, "run \(run): the set returned, but read back \(String(describing: now?.username))")
            case .failure(let error) where error is CancellationError:
                #expect(
                    now == current || now == new,
                    "run \(run): neither the old record nor the new one, but \(String(describing: now?.username))")
            case .failure(let error):
                Issue.record("run \(run): the set failed with \(error)")
            }
            // One record, the one read back: never both, never a third.
            #expect(listed.map(\.username) == [now?.username].compactMap { $0 }, "run \(run): \(listed.map(\.username))")
            current = try #require(now, "run \(run): the record is gone")
        }
    }

    @Test("A write waiting for a lock another process holds, cancelled, throws CancellationError and never writes")
    func cancelledLockWait() async throws {
        let url = try FileStoreFixture.newFileURL()
        let store = try EncryptedFileStore(url: url, secret: .key(FileStoreFixture.randomKey()), lockTimeout: .seconds(300))
        let keyring = try Keyring(service: "test.lock", store: store)
        let old = try Samples.credentials("old")
        try await keyring.set(old, forKey: "work")

        let holder = try LockHolder(path: url.path + ".lock")
        defer { holder.release() }
        let write = Task { try await keyring.set(try Samples.credentials("new"), forKey: "work") }
        try await Task.sleep(for: .milliseconds(100))
        write.cancel()
        // Not .timedOut: the lock's five-minute bound was never reached.
        expectCancellationError(await write.result)
        holder.release()

        // Had the wait gone on, the set would take the freed lock now and write, before this read.
        let after = try await keyring.credentials(forKey: "work")
        #expect(after == old, "found \(String(describing: after?.username))")
    }

    @Test("A read made while an earlier write waits for the lock runs after it and sees the new record")
    func readsKeepTheirTurn() async throws {
        let url = try FileStoreFixture.newFileURL()
        let keyring = try Keyring(
            service: "test.order", store: EncryptedFileStore(url: url, secret: .key(FileStoreFixture.randomKey())))
        try await keyring.set(try Samples.credentials("old"), forKey: "work")
        let holder = try LockHolder(path: url.path + ".lock")
        defer { holder.release() }
        let new = try Samples.credentials("new")
        let write = Task { try await keyring.set(new, forKey: "work") }
        // The read could be answered at once from memory; it must wait its turn behind the write.
        while keyring.executor.isIdle { await Task.yield() }
        let read = Task { try await keyring.credentials(forKey: "work") }
        try await Task.sleep(for: .milliseconds(50))
        holder.release()
        try await write.value
        #expect(try await read.value == new)
    }

    @Test("Opening with await opens the selected store; an open from a cancelled task throws CancellationError")
    func asyncOpen() async throws {
        let configuration = KeyringConfiguration(
            store: .file, fileURL: try FileStoreFixture.newFileURL(), fileSecret: .passphrase("a passphrase for a test")
        )
        let keyring = try await Keyring(service: "test.open", configuration: configuration)
        #expect(keyring.selection.kind == .file)
        try await keyring.set(try Samples.credentials("opened"), forKey: "work")
        let again = try await Keyring(service: "test.open", configuration: configuration)
        #expect(try await again.credentials(forKey: "work")?.username == "opened")

        let open = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Keyring(service: "test.open", configuration: configuration)
        }
        expectCancellationError(await open.result)
    }

    private func expectCancellationError<Value>(
        _ outcome: Result<Value, any Error>, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        switch outcome {
        case .failure(let error) where error is CancellationError:
            break
        case .failure(let error):
            Issue.record("expected CancellationError, got \(error)", sourceLocation: sourceLocation)
        case .success(let value):
            Issue.record("expected CancellationError, got a result: \(value)", sourceLocation: sourceLocation)
        }
    }
}

/// Another process holding a keyring file's lock (`flock` from util-linux) until released.
private final class LockHolder {
    private let process: Process

    init(path: String) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // One process holds the lock from start to end, so ending it frees the lock.
        process.arguments = ["-c", "exec 9>>\"$0\" && flock --exclusive 9 && exec sleep 600", path]
        try process.run()
        // Held once a non-blocking attempt from here fails.
        let held = ChildProcess.poll(timeout: .seconds(15)) {
            (try? ChildProcess.run(["flock", "--nonblock", path, "true"]).status) == 1
        }
        guard held else {
            release()
            throw ChildProcess.Failure(description: "flock did not take \(path)")
        }
    }

    func release() {
        ChildProcess.terminate(process)
    }
}

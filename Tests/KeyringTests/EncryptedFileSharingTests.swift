import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Several stores, threads and processes on one file, and processes that die mid-write.
@Suite("Encrypted file: sharing and crashes")
struct EncryptedFileSharingTests {
    private func record(_ key: String, service: String = "worker") -> StoredRecord {
        StoredRecord(
            id: RecordID(service: service, key: key, kind: .credentials),
            metadata: RecordMetadata(username: "u", url: "https://example.com"),
            secret: Array("secret-\(key)".utf8)
        )
    }

    @Test("A store sees what another store wrote to the same file, and removals too")
    func twoStores() throws {
        let key = FileStoreFixture.randomKey()
        let first = try FileStoreFixture.store(key: key)
        let second = try FileStoreFixture.store(url: first.url, key: key)
        try first.save(record("a"))
        #expect(try second.record(for: record("a").id)?.secret == record("a").secret)
        try second.save(record("b"))
        #expect(try first.summaries(service: "worker", kind: nil).map(\.id.key) == ["a", "b"])
        #expect(try first.removeRecord(for: record("b").id))
        #expect(try second.record(for: record("b").id) == nil)
    }

    @Test("Sixteen threads on two stores of one file lose nothing")
    func sixteenThreadsTwoStores() throws {
        let key = FileStoreFixture.randomKey()
        let stores = try [FileStoreFixture.store(key: key)]
        let all = try stores + [FileStoreFixture.store(url: stores[0].url, key: key)]
        let failures = ConcurrentFailures()
        // Sixteen threads of their own, released together from one barrier (not one per core).
        let reached = AtOnce.threads(16) { thread in
            let store = all[thread % 2]
            do {
                for index in 0..<10 {
                    try store.save(record("t\(thread)-\(index)"))
                    if try store.record(for: record("t\(thread)-\(index)").id) == nil {
                        failures.record("t\(thread)-\(index) not readable right after saving")
                    }
                }
            } catch {
                failures.record("\(error)")
            }
        }
        print("\(reached) of 16 threads were waiting on the barrier when it opened")
        #expect(reached == 16, "only \(reached) of 16 threads reached the barrier")
        #expect(failures.all.isEmpty)
        let fresh = try FileStoreFixture.store(url: stores[0].url, key: key)
        #expect(try fresh.summaries(service: "worker", kind: nil).count == 160)
    }

    @Test("A write waits for another process's lock, then gives up with .timedOut and changes nothing")
    func lockTimeout() throws {
        let key = FileStoreFixture.randomKey()
        let url = try FileStoreFixture.store(key: key).url
        let store = try EncryptedFileStore(url: url, secret: .key(key), lockTimeout: .milliseconds(300))
        let before = try Data(contentsOf: url)
        let holder = open(url.path + ".lock", O_RDWR)
        #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
        #expect(
            throws: KeyringError.timedOut(operation: "a write to \(url.path) while another writer held its lock", seconds: 0.3)
        ) {
            try store.save(record("late"))
        }
        close(holder)
        #expect(try Data(contentsOf: url) == before)
        try store.save(record("late"))
        #expect(try store.record(for: record("late").id) != nil)
    }

    @Test("Without CAP_IPC_LOCK and with no lockable memory, the store still works and prints no warning")
    func withoutLockedMemory() throws {
        let keyFile = try FileStoreFixture.keyFile()
        let url = try FileStoreFixture.newFileURL()
        // Root keeps CAP_IPC_LOCK, which ignores the limit, unless it is dropped too.
        let dropCapability = geteuid() == 0 ? ["setpriv", "--inh-caps=-ipc_lock", "--bounding-set=-ipc_lock", "--"] : []
        let worker = try TestWorker(
            file: url, keyFile: keyFile, prefix: "unlocked", count: 3,
            launcher: ["prlimit", "--memlock=0:0", "--"] + dropCapability
        )
        #expect(worker.waitForExit(timeout: .seconds(60)))
        #expect(worker.process.terminationStatus == 0)
        #expect(worker.errorOutput() == "")
        #expect(worker.acknowledgedKeys() == ["unlocked-0", "unlocked-1", "unlocked-2"])
        #expect(try EncryptedFileStore(url: url, secret: .keyFile(keyFile)).summaries(service: "worker", kind: nil).count == 3)
    }

    @Test("Four processes writing 100 records each to one file at once: 400 records")
    func fourProcesses() throws {
        let keyFile = try FileStoreFixture.keyFile()
        let url = try FileStoreFixture.newFileURL()
        let workers = try (0..<4).map { try TestWorker(file: url, keyFile: keyFile, prefix: "p\($0)", count: 100) }
        for worker in workers {
            #expect(worker.waitForExit(timeout: .seconds(120)), "a worker did not finish")
            #expect(worker.process.terminationStatus == 0)
            #expect(worker.acknowledgedKeys().count == 100)
        }
        let store = try EncryptedFileStore(url: url, secret: .keyFile(keyFile))
        let keys = Set(try store.summaries(service: "worker", kind: nil).map(\.id.key))
        #expect(keys.count == 400)
        for process in 0..<4 {
            for index in [0, 57, 99] {
                #expect(try store.record(for: record("p\(process)-\(index)").id)?.secret == record("p\(process)-\(index)").secret)
            }
        }
    }

    @Test("A writer killed with SIGKILL at random moments, 20 times: the file opens and every acknowledged write is there")
    func killedWriters() throws {
        let keyFile = try FileStoreFixture.keyFile()
        let url = try FileStoreFixture.newFileURL()
        var acknowledged: [String] = []
        for run in 0..<20 {
            let worker = try TestWorker(file: url, keyFile: keyFile, prefix: "r\(run)", count: 0)
            #expect(worker.waitForOutput(timeout: .seconds(30)), "run \(run): the worker wrote nothing")
            usleep(UInt32.random(in: 0...40_000))
            worker.kill()
            let keys = worker.acknowledgedKeys()
            acknowledged += keys
            let store = try EncryptedFileStore(url: url, secret: .keyFile(keyFile), createIfMissing: false)
            let stored = Set(try store.summaries(service: "worker", kind: nil).map(\.id.key))
            let lost = keys.filter { !stored.contains($0) }
            #expect(lost.isEmpty, "run \(run): \(lost.count) acknowledged writes lost")
        }
        let store = try EncryptedFileStore(url: url, secret: .keyFile(keyFile), createIfMissing: false)
        for key in acknowledged {
            #expect(try store.record(for: record(key).id)?.secret == record(key).secret, "\(key)")
        }
        #expect(acknowledged.count >= 20)
    }
}

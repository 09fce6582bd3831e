import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Several stores, threads and processes on one libsecret file, and processes that die mid-write.
@Suite("libsecret file: sharing and crashes")
struct LibsecretFileSharingTests {
    private func record(_ key: String) -> StoredRecord {
        StoredRecord(
            id: RecordID(service: "worker", key: key, kind: .credentials),
            metadata: RecordMetadata(username: "u", url: "https://example.com"),
            secret: Array("secret-\(key)".utf8)
        )
    }

    private func store(_ url: URL, _ keyFile: URL, createIfMissing: Bool = true) throws -> LibsecretFileStore {
        try LibsecretFileStore(url: url, key: .secret(.keyFile(keyFile)), createIfMissing: createIfMissing)
    }

    @Test("A store sees what another store wrote to the same file, and removals too")
    func twoStores() throws {
        let password = LibsecretFileFixture.randomPassword()
        let first = try LibsecretFileFixture.store(password: password)
        let second = try LibsecretFileFixture.store(url: first.url, password: password)
        try first.save(record("a"))
        #expect(try second.record(for: record("a").id)?.secret == record("a").secret)
        try second.save(record("b"))
        #expect(try first.summaries(service: "worker", kind: nil).map(\.id.key) == ["a", "b"])
        #expect(try first.removeRecord(for: record("b").id))
        #expect(try second.record(for: record("b").id) == nil)
    }

    @Test("Sixteen threads on two stores of one file lose nothing")
    func sixteenThreadsTwoStores() throws {
        let password = LibsecretFileFixture.randomPassword()
        let first = try LibsecretFileFixture.store(password: password)
        let all = [first, try LibsecretFileFixture.store(url: first.url, password: password)]
        let failures = ConcurrentFailures()
        // Sixteen threads of their own, released together from one barrier (not one per core).
        let reached = AtOnce.threads(16) { thread in
            do {
                for index in 0..<10 {
                    try all[thread % 2].save(record("t\(thread)-\(index)"))
                    if try all[thread % 2].record(for: record("t\(thread)-\(index)").id) == nil {
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
        let fresh = try LibsecretFileFixture.store(url: first.url, password: password)
        #expect(try fresh.summaries(service: "worker", kind: nil).count == 160)
    }

    @Test("A write waits for another writer's lock, then gives up with .timedOut and changes nothing")
    func lockTimeout() throws {
        let password = LibsecretFileFixture.randomPassword()
        let url = try LibsecretFileFixture.newFileURL()
        try LibsecretFileFixture.store(url: url, password: password).save(record("first"))
        let store = try LibsecretFileStore(url: url, key: .secret(.passphrase(password)), lockTimeout: .milliseconds(300))
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

    @Test("Four processes writing 100 records each to one file at once: 400 records")
    func fourProcesses() throws {
        let keyFile = try FileStoreFixture.keyFile()
        let url = try LibsecretFileFixture.newFileURL()
        let workers = try (0..<4).map {
            try TestWorker(file: url, keyFile: keyFile, prefix: "p\($0)", count: 100, mode: "libsecret-file")
        }
        for worker in workers {
            #expect(worker.waitForExit(timeout: .seconds(300)), "a worker did not finish")
            #expect(worker.process.terminationStatus == 0, "\(worker.errorOutput())")
            #expect(worker.acknowledgedKeys().count == 100)
        }
        let store = try store(url, keyFile)
        #expect(Set(try store.summaries(service: "worker", kind: nil).map(\.id.key)).count == 400)
        for process in 0..<4 {
            for index in [0, 57, 99] {
                #expect(try store.record(for: record("p\(process)-\(index)").id)?.secret == record("p\(process)-\(index)").secret)
            }
        }
    }

    @Test("A writer killed with SIGKILL at random moments, 20 times: the file opens and every acknowledged write is there")
    func killedWriters() throws {
        let keyFile = try FileStoreFixture.keyFile()
        let url = try LibsecretFileFixture.newFileURL()
        var acknowledged: [String] = []
        for run in 0..<20 {
            let worker = try TestWorker(file: url, keyFile: keyFile, prefix: "r\(run)", count: 0, mode: "libsecret-file")
            #expect(worker.waitForOutput(timeout: .seconds(30)), "run \(run): the worker wrote nothing")
            usleep(UInt32.random(in: 0...40_000))
            worker.kill()
            let keys = worker.acknowledgedKeys()
            acknowledged += keys
            let stored = Set(
                try store(url, keyFile, createIfMissing: false).summaries(service: "worker", kind: nil).map(\.id.key))
            let lost = keys.filter { !stored.contains($0) }
            #expect(lost.isEmpty, "run \(run): \(lost.count) acknowledged writes lost")
        }
        let store = try store(url, keyFile, createIfMissing: false)
        for key in acknowledged {
            #expect(try store.record(for: record(key).id)?.secret == record(key).secret, "\(key)")
        }
        #expect(acknowledged.count >= 20)
    }
}

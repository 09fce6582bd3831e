import Dispatch
import Foundation
import KeyringTestSupport
import Synchronization
import Testing

@testable import SwiftKeyring

/// The kernel store beyond the conformance kit (which `StoreConformanceTests` runs on it): many
/// processes at once, the user's quota, other users and other sessions, as a user would meet them.
@Suite("Kernel keyring store")
struct KernelKeyringStoreTests {
    /// The tests that take another user's identity need root, as this machine runs them.
    private static let isRoot = getuid() == 0

    /// `KeyringTestWorker kernel-store ARGUMENTS…`, as `user` (another uid through setpriv) when given.
    /// - Parameter barrier: a command line that holds the worker back until its siblings are ready (AtOnce).
    private func worker(
        _ arguments: [String], as user: UInt32? = nil, environment: [String: String] = [:], timeout: Duration = .seconds(60),
        barrier: [String] = []
    ) throws -> (status: Int32, lines: [String], errors: String) {
        let launcher = user.map { ["setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] } ?? []
        // Another user runs a copy: the build folder may be closed to it (a checkout in a 0700 folder).
        let executable = try user.map { _ in try CopyForOtherUsers.executable(TestWorker.executable.path) }
        let output = try ChildProcess.run(
            launcher + barrier + [executable ?? TestWorker.executable.path, "kernel-store"] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, timeout: timeout)
        let lines = String(decoding: output.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        return (output.status, lines, output.standardError)
    }

    @Test("8 processes setting, reading, listing and removing at once lose no acknowledged write")
    func eightProcesses() throws {
        let service = TestStore.uniqueService("kernel-churn")
        let keyring = try Keyring(service: service, store: KernelKeyringStore())
        defer { _ = try? keyring.removeAll() }
        let rounds = 30
        let results = Mutex<[Int: (status: Int32, lines: [String], errors: String)]>([:])
        let failures = Mutex<[String]>([])
        // All eight wait on one barrier and begin together, so they race to make the service's keyring too.
        let reached = try AtOnce.processes(8) { index, barrier in
            do {
                let result = try worker(["churn", service, "\(index)", "\(rounds)"], timeout: .seconds(300), barrier: barrier)
                results.withLock { $0[index] = result }
            } catch {
                failures.withLock { $0.append("worker \(index): \(error)") }
            }
        }
        print("KernelKeyringStoreTests: \(reached) of 8 worker processes were waiting on the barrier when it opened")
        #expect(reached == 8, "only \(reached) of 8 workers reached the barrier")
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        var expected: [String: String] = [:]
        for (index, result) in results.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            #expect(result.status == 0, "worker \(index) ended with \(result.status): \(result.errors)")
            #expect(!result.lines.contains { $0.hasPrefix("lost ") }, "worker \(index) read back another record")
            let set = result.lines.filter { $0.hasPrefix("set ") }.map { String($0.dropFirst(4)) }
            let removed = Set(result.lines.filter { $0.hasPrefix("removed ") }.map { String($0.dropFirst(8)) })
            #expect(set.count == rounds && removed.count == (rounds + 2) / 3, "worker \(index): \(result.lines.count) lines")
            for key in set where !removed.contains(key) {
                let round = Int(key.split(separator: "-").last!)!
                expected[key] = round % 5 == 4 ? String(repeating: "\(round % 10)", count: 40_000) : "p-\(key)"
            }
        }
        #expect(expected.count == 8 * (rounds - (rounds + 2) / 3))
        #expect(Set(try keyring.list().map(\.key)) == Set(expected.keys), "the keys listed are exactly those set and not removed")
        for (key, password) in expected {
            let same = try keyring.credentials(forKey: key)?.password == password
            #expect(same, "\(key)'s acknowledged password read back")
        }
    }

    @Test("A full quota fails only the call that meets it, naming the limits, and every earlier record stays as written")
    func fullQuota() throws {
        // Root's quota (root_maxkeys, root_maxbytes) is a million keys, and the limits are the machine's
        // to change, not a test's: so as root an ordinary user (nobody, 65534) fills its own quota of
        // maxkeys and maxbytes; as an ordinary user, the worker fills this user's own.
        let service = TestStore.uniqueService("kernel-quota")
        let result = try worker(["fill", service], as: Self.isRoot ? 65534 : nil)
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.lines
        let acknowledged = lines.first { $0.hasPrefix("acknowledged ") }.flatMap { Int($0.dropFirst(13)) } ?? 0
        #expect(acknowledged >= 1, "no record was stored before the quota was full: \(lines)")
        let limits = ["maxkeys", "maxbytes"].map { name in
            let value = (try? String(contentsOfFile: "/proc/sys/kernel/keys/\(name)", encoding: .utf8)) ?? "?"
            return "/proc/sys/kernel/keys/\(name) \(value.trimmingCharacters(in: .whitespacesAndNewlines))"
        }
        let error = lines.first { $0.hasPrefix("error: ") } ?? "no error line"
        #expect(error.contains("quota is full") && limits.allSatisfy(error.contains), "\(error)")
        let replace = lines.first { $0.hasPrefix("replace error: ") } ?? "no replace error (\(lines))"
        #expect(replace.contains("quota is full"), "replacing a record past the quota: \(replace)")
        #expect(lines.contains("intact \(acknowledged)"), "every acknowledged record unchanged after both failures: \(lines)")
        #expect(lines.contains("removed \(acknowledged)"), "\(lines)")
    }

    @Test(
        "Another user can neither read a record's key nor see its name, nor find the record; the owner can",
        MachineNeed.rootWithSetpriv.trait())
    func anotherUser() throws {
        try MachineNeed.rootWithSetpriv.require()  // taking another uid
        let service = TestStore.uniqueService("kernel-user")
        let keyring = try Keyring(service: service, store: KernelKeyringStore())
        defer { _ = try? keyring.removeAll() }
        try keyring.set(try Samples.credentials("alice", password: "only-for-root"), forKey: "work")
        let id = try #require(try worker(["key-id", service, "work"]).lines.first.flatMap(Int32.init))
        #expect(id > 0)
        #expect(try worker(["read-key", "\(id)"]).lines == ["readable"], "the owner reads its key")
        let other = try worker(["read-key", "\(id)"], as: 65534).lines
        #expect(other == ["denied Permission denied"], "uid 65534 reading the key: \(other)")
        #expect(try worker(["get", service, "work"], as: 65534).lines == ["absent"])
        #expect(try worker(["get", service, "work"]).lines == ["found"])
        let mine = try ChildProcess.run(["cat", "/proc/keys"]).standardOutput
        let theirs = try ChildProcess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "cat", "/proc/keys"])
            .standardOutput
        let lines = String(decoding: mine, as: UTF8.self).split(separator: "\n")
        let ring = lines.first { $0.contains("keyring") && $0.contains("swift-keyring:\(service)") }
        #expect(ring?.contains("perm 3f3f0000") == true, "the service keyring: \(ring.map(String.init) ?? "not listed")")
        let record = lines.first { $0.contains(String(format: "%08x", id)) }
        #expect(record?.contains("perm 3f3f0000") == true, "the record's key: \(record.map(String.init) ?? "not listed")")
        #expect(!String(decoding: theirs, as: UTF8.self).contains(service), "uid 65534 sees the service's keyring in /proc/keys")
    }

    @Test("In the session keyring, the session's processes find the records; another session and the persistent keyring do not")
    func sessionScope() throws {
        // Only workers touch the session keyring: a thread that looks up a session keyring it
        // does not have gets the user's installed in its credentials by the kernel, and every
        // process it starts later inherits that (setpriv'd ones too), which other tests do not expect.
        let service = TestStore.uniqueService("kernel-session")
        let session = ["SWIFT_KEYRING_KERNEL_KEYRING": "session"]
        #expect(try worker(["set", service, "work"], environment: session).status == 0)
        defer { _ = try? worker(["remove-all", service], environment: session) }
        #expect(try worker(["get", service, "work"], environment: session).lines == ["found"])
        #expect(try worker(["get", service, "work"]).lines == ["absent"], "the persistent keyring holds it too")
        let elsewhere = try ChildProcess.run(
            [
                TestWorker.executable.path, "session-keyring", "new-session", TestWorker.executable.path, "kernel-store", "get",
                service, "work",
            ],
            environment: ProcessInfo.processInfo.environment.merging(session) { $1 })
        #expect(String(decoding: elsewhere.standardOutput, as: UTF8.self) == "absent\n", "\(elsewhere.standardError)")
        #expect(try worker(["remove-all", service], environment: session).lines == ["1"])
    }

    @Test("The kernel store is chosen only when asked for, and its keyring setting is checked")
    func selection() throws {
        #expect(try Keyring.selection(for: KeyringConfiguration(environment: [:])).kind != .kernel)
        let asked = try Keyring(
            service: "s", configuration: KeyringConfiguration(environment: ["SWIFT_KEYRING_BACKEND": "kernel"]))
        #expect(asked.store.identity == StoreIdentity(kind: .kernel, details: [StoreDetail("keyring", "persistent")]))
        let session = KeyringConfiguration(store: .kernel, environment: ["SWIFT_KEYRING_KERNEL_KEYRING": "session"])
        // Not opened: opening looks up the session keyring, which this test process must not (see sessionScope).
        #expect(try session.requestedKernelKeyring() == .session)
        #expect(
            throws: KeyringError.invalidConfiguration(
                setting: "SWIFT_KEYRING_KERNEL_KEYRING", reason: "must be persistent or session, not \"user\"")
        ) {
            try Keyring(service: "s", configuration: KeyringConfiguration(environment: ["SWIFT_KEYRING_KERNEL_KEYRING": "user"]))
        }
    }

    @Test("A key longer than a key's description can hold is refused naming the field, before the kernel is asked")
    func longKey() throws {
        let keyring = try Keyring(service: TestStore.uniqueService("kernel-long"), store: KernelKeyringStore())
        defer { _ = try? keyring.removeAll() }
        let key = String(repeating: "k", count: 4_090)
        #expect(throws: KeyringError.invalidRecord(field: "key", reason: "the kernel store holds keys of up to 4083 bytes")) {
            try keyring.set(try Samples.credentials("alice"), forKey: key)
        }
        #expect(try keyring.list().isEmpty)
    }

    @Test("A kernel that refuses the calls, or lacks KEYCTL_MOVE, says so, naming the encrypted file to use instead")
    func refusedAndQuotaMessages() {
        let refused = KernelKeyFailure(operation: "add_key", errorNumber: EPERM).keyringError(
            fallback: "use the encrypted file instead (--backend file, SWIFT_KEYRING_BACKEND=file)")
        let text = "\(refused)"
        #expect(text.contains("the kernel refused add_key") && text.contains("seccomp") && text.contains("Docker"), "\(text)")
        #expect(text.contains("--backend file"), "\(text)")
        let noMove = KernelKeyFailure(operation: "keyctl(KEYCTL_MOVE)", errorNumber: EOPNOTSUPP, since: "Linux 5.1")
        let old = "\(noMove.keyringError(fallback: "use the encrypted file instead (--backend file)"))"
        #expect(old.contains("does not offer keyctl(KEYCTL_MOVE)") && old.contains("Linux 5.1 or later"), "\(old)")
        #expect(old.contains("--backend file"), "\(old)")
        let quota = "\(KernelKeyFailure(operation: "add_key", errorNumber: EDQUOT).keyringError)"
        let prefix = Self.isRoot ? "/proc/sys/kernel/keys/root_" : "/proc/sys/kernel/keys/"
        #expect(quota.contains("\(prefix)maxkeys ") && quota.contains("\(prefix)maxbytes "), "\(quota)")
    }
}

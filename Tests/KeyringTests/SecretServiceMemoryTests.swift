import Foundation
import KeyringTestSupport
import SwiftKeyring
import Synchronization
import Testing

/// A store that remembers which item holds a record (gnome-keyring only) never
/// returns a value older than one whose write, by any process, had returned
/// before the lookup began. Runs on both daemons: on KeePassXC nothing is
/// remembered, and the same reads must hold the long way.
@Suite("Secret Service: remembered item paths stay exact")
struct SecretServiceMemoryTests {
    /// What a reader saw: the indices in `user-U` and `secret-S`, or nothing.
    private struct Seen: Equatable, CustomStringConvertible {
        var user: Int
        var secret: Int

        init(user: Int, secret: Int) {
            self.user = user
            self.secret = secret
        }

        init?(_ credentials: Credentials?) {
            guard let credentials, let user = Int(credentials.username.dropFirst("user-".count)),
                let secret = Int(credentials.password.dropFirst("secret-".count))
            else { return nil }
            self.init(user: user, secret: secret)
        }

        /// Names the write a password came from, never the password.
        var description: String { "username of write \(user), password of write \(secret)" }
    }

    private static var remembers: Bool { PrivateSecretService.daemon == .gnomeKeyring }

    private static func worker(_ arguments: [String]) throws {
        let result = try ChildProcess.run([TestWorker.executable.path, "secret-service"] + arguments, timeout: .seconds(60))
        #expect(result.status == 0, "KeyringTestWorker secret-service \(arguments): \(result.standardError)")
    }

    private static func secretTool(_ arguments: [String], input: String = "") throws {
        let result = try PrivateSecretService.secretTool(arguments, input: Data(input.utf8))
        #expect(result.status == 0, "secret-tool \(arguments.first ?? ""): \(result.standardError)")
    }

    @Test("Changes made by other processes are seen by the next lookup, however they were made")
    func otherProcessesChanges() throws {
        let store = try PrivateSecretService.makeStore()
        let service = TestStore.uniqueService("memory")
        let keyring = try Keyring(service: service, store: store)
        defer { _ = try? keyring.removeAll() }
        let attributes = [
            "tag", "swift-keyring", "service", service, "key", "work", "kind", "credentials",
            "url", "https://example.com", "sync", "false", "background-access", "false",
        ]
        let steps: [(change: String, expected: Seen?, make: () throws -> Void)] = [
            ("the secret alone, in place", Seen(user: 1, secret: 2), { try Self.worker(["set", service, "work", "1", "2"]) }),
            ("username and secret, in place", Seen(user: 3, secret: 3), { try Self.worker(["set", service, "work", "3", "3"]) }),
            ("a removal", nil, { try Self.worker(["remove", service, "work"]) }),
            ("a new item", Seen(user: 4, secret: 4), { try Self.worker(["set", service, "work", "4", "4"]) }),
            ("removeAll", nil, { try Self.worker(["remove-all", service]) }),
            (
                "secret-tool store", Seen(user: 5, secret: 5),
                {
                    try Self.secretTool(["store", "--label=memory"] + attributes + ["username", "user-5"], input: "secret-5")
                }
            ),
            (
                "secret-tool clear", nil,
                { try Self.secretTool(["clear", "tag", "swift-keyring", "service", service, "key", "work"]) }
            ),
            ("a new item after secret-tool", Seen(user: 6, secret: 6), { try Self.worker(["set", service, "work", "6", "6"]) }),
        ]
        try Self.worker(["set", service, "work", "1", "1"])
        var current = Seen(user: 1, secret: 1) as Seen?
        for step in steps {
            // Reads until one is answered from memory (the first search only counts, the
            // second remembers). Other suites write to the same daemon meanwhile, and each
            // of their writes makes what is remembered stale, so it may take a few.
            var fromMemory = false
            for _ in 0..<(Self.remembers && current != nil ? 200 : 3) where !fromMemory {
                let before = store.lookupsFromMemory
                #expect(Seen(try keyring.credentials(forKey: "work")) == current, "before \(step.change)")
                #expect(try keyring.password(forKey: "work") == current.map { "secret-\($0.secret)" })
                fromMemory = store.lookupsFromMemory > before
            }
            if current != nil {
                #expect(fromMemory == Self.remembers, "before \(step.change): no read was answered from memory")
            }
            try step.make()
            #expect(Seen(try keyring.credentials(forKey: "work")) == step.expected, "after \(step.change)")
            #expect(try keyring.password(forKey: "work") == step.expected.map { "secret-\($0.secret)" }, "after \(step.change)")
            current = step.expected
        }
    }

    @Test(
        "More stores in one process than the user may have inotify instances (128) all remember",
        .enabled(if: remembers, "only gnome-keyring's stores remember, so on KeePassXC there is nothing to show")
    )
    func manyStores() throws {
        let service = TestStore.uniqueService("memory-many")
        let first = try Keyring(service: service, store: PrivateSecretService.makeStore())
        defer { _ = try? first.removeAll() }
        try first.set(Samples.credentials(), forKey: "work")
        // All kept open: each watches the daemon's keyring folder while it lives.
        var stores: [(store: SecretServiceStore, keyring: Keyring)] = []
        for _ in 0..<150 {
            let store = try PrivateSecretService.makeStore()
            let keyring = try Keyring(service: service, store: store)
            // The first search only counts; the second starts the watch.
            for _ in 0..<2 { _ = try keyring.credentials(forKey: "work") }
            stores.append((store, keyring))
        }
        // Every store watches, the 129th to the 150th too: this does not depend on what
        // other suites write to the same daemon meanwhile.
        let watching = stores.filter(\.store.remembersFindings).count
        #expect(watching == stores.count)
        // And each answers a read from memory. Every write another suite makes meanwhile
        // (their stress tests write for seconds) makes what is remembered stale, so the
        // stores are read in rounds until each has answered once; the rounds outlast any
        // such writer many times over, and a store that never remembers fails.
        var pending = stores
        for _ in 0..<100 where !pending.isEmpty {
            for entry in pending { _ = try entry.keyring.credentials(forKey: "work") }
            pending.removeAll { $0.store.lookupsFromMemory > 0 }
        }
        #expect(pending.isEmpty, "\(pending.count) of \(stores.count) stores never answered a read from memory")
    }

    @Test("A reader never sees a value older than the last write that returned before its read began")
    func concurrentWriter() throws {
        let store = try PrivateSecretService.makeStore()
        let service = TestStore.uniqueService("memory-race")
        let keyring = try Keyring(service: service, store: store)
        defer { _ = try? keyring.removeAll() }
        try Self.worker(["set", service, "work", "0", "0"])
        let count = 90
        let writer = Process()
        writer.executableURL = TestWorker.executable
        writer.arguments = ["secret-service", "writes", service, "work", String(count)]
        let output = Pipe()
        let errors = Pipe()
        writer.standardOutput = output
        writer.standardError = errors
        // The last write whose line the writer printed (it had returned), and its username's U.
        let acknowledged = Acknowledged()
        try writer.run()
        let lines = Thread {
            var pending = Data()
            while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
                pending.append(chunk)
                while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let fields = String(decoding: pending[pending.startIndex..<end], as: UTF8.self).split(separator: " ")
                    if fields.count == 2, let n = Int(fields[0]), let user = Int(fields[1]) {
                        // Either value alone is a floor: each came from a write that had returned.
                        acknowledged.user.store(user, ordering: .sequentiallyConsistent)
                        acknowledged.last.store(n, ordering: .sequentiallyConsistent)
                    }
                    pending.removeSubrange(pending.startIndex...end)
                }
            }
        }
        lines.start()
        var reads = 0
        var stale: [String] = []
        let memoryBefore = store.lookupsFromMemory
        let until = ContinuousClock.now + .seconds(120)
        while writer.isRunning, ContinuousClock.now < until {
            let floor = acknowledged.last.load(ordering: .sequentiallyConsistent)
            let userFloor = acknowledged.user.load(ordering: .sequentiallyConsistent)
            let read = try keyring.credentials(forKey: "work")
            reads += 1
            // A removal before every third write may show as no record: that is newer, not older.
            guard let seen = Seen(read) else { continue }
            if seen.secret < floor || seen.user < userFloor {
                stale.append("\(seen) after write \(floor) had returned")
            }
        }
        if writer.isRunning { writer.terminate() }
        writer.waitUntilExit()
        #expect(
            writer.terminationStatus == 0,
            "writer: \(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        #expect(acknowledged.last.load(ordering: .sequentiallyConsistent) == count)
        let staleCount = stale.count
        #expect(staleCount == 0, "\(staleCount) of \(reads) reads were stale, first: \(stale.prefix(3))")
        // The reads between writes must have used memory, or this test proved nothing about it.
        #expect(
            (store.lookupsFromMemory > memoryBefore) == Self.remembers,
            "\(store.lookupsFromMemory - memoryBefore) of \(reads) reads came from memory")
    }
}

/// The last write a writer process reported as returned, and the U of that write's username.
private final class Acknowledged: Sendable {
    let last = Atomic<Int>(0)
    let user = Atomic<Int>(0)
}

import Foundation
import KeyringEtcd
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Issue 23: the sync flag over two real stores. Host A's local store is the private
/// gnome-keyring, host B's an encrypted file; both share the 3-node etcd cluster.
@Suite("Sync across hosts: two-store keyrings on etcd")
struct SyncAcrossHostsTests {
    @Test("A synced record reaches the other host; a device-only one is seen by neither its get nor its list")
    func twoHosts() throws {
        let fleet = try SyncFleet(try EtcdCluster.shared())
        let hostA = try fleet.secretServiceHost()
        let hostB = try fleet.fileHost()
        defer { _ = try? hostA.keyring.removeAll() }
        let synced = try Fixtures.credentials("fleet-user", password: "fleet-pw", sync: true)
        let deviceOnly = try Fixtures.credentials("desk-user", password: "desk-pw")
        try hostA.keyring.set(synced, forKey: "registry")
        try hostA.keyring.set(deviceOnly, forKey: "desk")
        try hostA.keyring.setSecret(Data("fleet-token".utf8), forKey: "token", sync: true)
        try hostA.keyring.setSecret(Data("desk-token".utf8), forKey: "local-token")

        #expect(try hostB.keyring.credentials(forKey: "registry") == synced)
        #expect(try hostB.keyring.password(forKey: "registry") == "fleet-pw")
        #expect(try hostB.keyring.credentials(forKey: "desk") == nil)
        #expect(try hostB.keyring.list().map(\.key) == ["registry"])
        #expect(try hostB.keyring.list().map(\.place) == [.shared])
        #expect(try hostB.keyring.secret(forKey: "token") == Data("fleet-token".utf8))
        #expect(try hostB.keyring.secret(forKey: "local-token") == nil)
        #expect(try hostB.keyring.secretKeys() == ["token"])

        // Each record lives in one place: the synced ones only in etcd, the others only in gnome-keyring.
        #expect(try hostA.local.record(for: fleet.id("registry")) == nil)
        #expect(try hostA.shared.record(for: fleet.id("desk")) == nil)
        #expect(try hostA.shared.record(for: fleet.id("local-token", .secret)) == nil)
        #expect(try hostA.local.record(for: fleet.id("desk"))?.metadata.username == "desk-user")
        let listed = try hostA.keyring.list()
        #expect(listed.map(\.key) == ["desk", "registry"])
        #expect(listed.map(\.place) == [.local, .shared])
        #expect(try hostA.keyring.list(place: .local).map(\.key) == ["desk"])
        #expect(try hostA.keyring.secretKeys() == ["local-token", "token"])
        // The async face finds a synced record that the local store answers as absent at once.
        let seenAsync = try runBlocking { try await hostB.keyring.credentials(forKey: "registry") }
        #expect(seenAsync == synced)
    }

    @Test("Setting a key again with the other flag moves it: written in its new place, gone from the old")
    func flagChangeMoves() throws {
        let fleet = try SyncFleet(try EtcdCluster.shared())
        let hostA = try fleet.fileHost()
        let hostB = try fleet.fileHost()
        defer { _ = try? hostA.keyring.removeAll() }
        try hostA.keyring.set(try Fixtures.credentials("alice", password: "one"), forKey: "k")
        #expect(try hostB.keyring.credentials(forKey: "k") == nil)

        try hostA.keyring.set(try Fixtures.credentials("alice", password: "two", sync: true), forKey: "k")
        #expect(try hostA.local.record(for: fleet.id("k")) == nil)
        #expect(try hostB.keyring.password(forKey: "k") == "two")
        #expect(try hostA.keyring.list().map(\.place) == [.shared])

        try hostA.keyring.set(try Fixtures.credentials("alice", password: "three"), forKey: "k")
        #expect(try hostA.shared.record(for: fleet.id("k")) == nil)
        #expect(try hostB.keyring.credentials(forKey: "k") == nil)
        #expect(try hostA.keyring.password(forKey: "k") == "three")
        #expect(try hostA.keyring.list().map(\.place) == [.local])
    }

    @Test(
        "A host killed between a move's two steps leaves both copies; the local copy wins until the next set or remove",
        arguments: ["to-shared", "to-local"])
    func killedBetweenSteps(direction: String) throws {
        let fleet = try SyncFleet(try EtcdCluster.shared())
        let host = try fleet.fileHost()
        let other = try fleet.fileHost()
        defer { _ = try? host.keyring.removeAll() }
        let toShared = direction == "to-shared"
        try host.keyring.set(try Fixtures.credentials("mover", password: "old", sync: !toShared), forKey: "k")

        let worker = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("KeyringTestWorker")
        let result = try ChildProcess.run(
            [
                worker.path, "sync-move-kill", host.file!.path, host.fileKey!.path, fleet.cluster.endpointList, fleet.prefix,
                fleet.keyFile.path, host.stateFolder.path, fleet.service, "k", "new", direction,
            ], timeout: .seconds(60))
        // Killed by SIGKILL as its second step began: not a normal exit.
        #expect(result.status == SIGKILL, "worker: \(result.standardError)")

        // Both copies are there, each in the place its own flag names.
        let local = try #require(try host.local.record(for: fleet.id("k")))
        let shared = try #require(try host.shared.record(for: fleet.id("k")))
        #expect(local.metadata.syncEnabled == false)
        #expect(shared.metadata.syncEnabled == true)
        // The local copy wins: a move to the shared store is undone, one to the local store finished.
        let expected = toShared ? "old" : "new"
        #expect(try host.keyring.password(forKey: "k") == expected)
        #expect(try host.keyring.list().map(\.place) == [.local])
        #expect(try host.keyring.list().count == 1)

        // The next write of the key leaves one copy, in the place of its flag.
        try host.keyring.set(try Fixtures.credentials("mover", password: "again", sync: toShared), forKey: "k")
        #expect(try (host.local.record(for: fleet.id("k")) == nil) == toShared)
        #expect(try (host.shared.record(for: fleet.id("k")) == nil) == !toShared)
        #expect(try other.keyring.password(forKey: "k") == (toShared ? "again" : nil))
    }

    @Test("remove takes a key from both stores, even both copies a crash left")
    func removeTakesBoth() throws {
        let fleet = try SyncFleet(try EtcdCluster.shared())
        let host = try fleet.fileHost()
        defer { _ = try? host.keyring.removeAll() }
        // Both copies, as a move to this machine interrupted after its first step leaves them: the
        // synced record (its key marked as having a shared copy), then the device-only copy beside it.
        try host.keyring.set(try Fixtures.credentials("a", password: "s", sync: true), forKey: "k")
        try host.local.save(
            StoredRecord(
                id: fleet.id("k"), metadata: RecordMetadata(username: "a", url: Fixtures.url.absoluteString),
                secret: Array("l".utf8)))
        #expect(try host.shared.record(for: fleet.id("k")) != nil)
        // A new keyring on the host's stores and marks, as the next process would open.
        let next = try Keyring(
            service: fleet.service, store: host.local, syncStore: host.shared, sharedCopies: SyncFleet.marks(host.stateFolder))
        #expect(try next.remove(forKey: "k"))
        #expect(try next.credentials(forKey: "k") == nil)
        #expect(try host.shared.record(for: fleet.id("k")) == nil)
        #expect(try next.remove(forKey: "k") == false)
    }

    @Test("removeAll empties this service for every host; removeAll(thisMachineOnly:) only this host's local store")
    func removeAllScopes() throws {
        let fleet = try SyncFleet(try EtcdCluster.shared())
        let hostA = try fleet.fileHost()
        let hostB = try fleet.fileHost()
        defer {
            _ = try? hostA.keyring.removeAll()
            _ = try? hostB.keyring.removeAll()
        }
        try hostA.keyring.set(try Fixtures.credentials("fleet", sync: true), forKey: "shared")
        try hostA.keyring.set(try Fixtures.credentials("a"), forKey: "a-only")
        try hostB.keyring.set(try Fixtures.credentials("b"), forKey: "b-only")

        #expect(try hostA.keyring.removeAll(thisMachineOnly: true) == 1)
        #expect(try hostA.keyring.list().map(\.key) == ["shared"])
        #expect(try hostB.keyring.list().map(\.key) == ["b-only", "shared"])

        try hostA.keyring.set(try Fixtures.credentials("a"), forKey: "a-only")
        #expect(try hostA.keyring.removeAll() == 2)
        #expect(try hostA.keyring.list().isEmpty)
        // Host B lost the synced record, as every host does, and kept its own.
        #expect(try hostB.keyring.list().map(\.key) == ["b-only"])
    }

    @Test("Records stored with the sync flag before sharing was set up move only with pushSyncedRecords")
    func pushMovesWaitingRecords() throws {
        let fleet = try SyncFleet(try EtcdCluster.shared())
        let host = try fleet.fileHost()
        let other = try fleet.fileHost()
        defer { _ = try? host.keyring.removeAll() }
        let alone = try Keyring(service: fleet.service, store: host.local)
        try alone.set(try Fixtures.credentials("fleet", password: "pushed", sync: true), forKey: "waiting")
        try alone.set(try Fixtures.credentials("desk"), forKey: "desk")
        try alone.setSecret(Data("s".utf8), forKey: "secret", sync: true)
        #expect(try alone.list().allSatisfy { $0.place == .local })

        // A read does not move it.
        #expect(try host.keyring.password(forKey: "waiting") == "pushed")
        #expect(try other.keyring.credentials(forKey: "waiting") == nil)
        #expect(try host.keyring.list().map(\.place) == [.local, .local])

        #expect(try host.keyring.pushSyncedRecords() == 2)
        #expect(try other.keyring.password(forKey: "waiting") == "pushed")
        #expect(try other.keyring.secret(forKey: "secret") == Data("s".utf8))
        #expect(try host.local.record(for: fleet.id("waiting")) == nil)
        #expect(try host.keyring.list().map(\.place) == [.local, .shared])
        #expect(try host.keyring.pushSyncedRecords() == 0)
        #expect {
            try alone.pushSyncedRecords()
        } throws: { ($0 as? KeyringError)?.code == .invalidConfiguration }
    }

    @Test("Records that arrive through a two-store keyring are sealed in etcd; device-only ones never reach it")
    func sealedThroughTwoStores() throws {
        let cluster = try EtcdCluster.shared()
        let fleet = try SyncFleet(cluster)
        let host = try fleet.fileHost()
        defer { _ = try? host.keyring.removeAll() }
        let keyring = try Keyring(service: "com.example.visible-sync-service", store: host.local, syncStore: host.shared)
        defer { _ = try? keyring.removeAll() }
        try keyring.set(
            try Credentials(
                username: "visible-username", password: "visible-password",
                url: URL(string: "https://visible-host.example.org/path")!, syncEnabled: true),
            forKey: "visible-record-key")
        try keyring.set(try Fixtures.credentials("device-only-user"), forKey: "device-only-key")
        #expect(try keyring.password(forKey: "visible-record-key") == "visible-password")
        let dump = try cluster.dump()
        for word in [
            "visible-password", "visible-username", "visible-host", "visible-record-key", "visible-sync-service",
            "device-only", "com.example",
        ] {
            #expect(dump.range(of: Data(word.utf8)) == nil, "etcd shows \"\(word)\"")
        }
        // One record under the prefix: the synced one.
        #expect(try Gateway.pairs(cluster.endpoints[0], prefix: fleet.prefix + "r/").count == 1)
    }

    @Test("Without quorum: device-only calls work; synced calls fail as unavailable, naming the cluster, writing nothing here")
    func quorumLost() throws {
        let cluster = try EtcdCluster.start()
        defer { cluster.stop() }
        let fleet = try SyncFleet(cluster)
        let host = try fleet.fileHost(sharedTimeout: .seconds(2))
        try host.keyring.set(try Fixtures.credentials("fleet", password: "fleet-pw", sync: true), forKey: "synced")
        try host.keyring.set(try Fixtures.credentials("desk", password: "desk-pw"), forKey: "desk")
        let survivor = try cluster.leader()
        for member in (1...3) where member != survivor { try cluster.kill(member) }

        // Device-only calls.
        #expect(try host.keyring.password(forKey: "desk") == "desk-pw")
        try host.keyring.set(try Fixtures.credentials("desk", password: "desk-pw-2"), forKey: "desk")
        #expect(try host.keyring.password(forKey: "desk") == "desk-pw-2")
        #expect(try host.keyring.list(place: .local).map(\.key) == ["desk"])
        #expect(try host.keyring.removeAll(thisMachineOnly: true) == 1)
        try host.keyring.set(try Fixtures.credentials("desk", password: "desk-pw-3"), forKey: "desk")
        #expect(try host.keyring.password(forKey: "desk") == "desk-pw-3")

        // Synced calls: unavailable, placed in etcd, naming a member of the cluster; nothing written locally.
        func expectUnavailable(_ what: String, _ call: () throws -> Void) {
            do {
                try call()
                Issue.record("\(what) succeeded without quorum")
            } catch let error as KeyringError {
                #expect(error.code == .serviceUnavailable, "\(what): \(error)")
                #expect(error.place == .etcd, "\(what): \(error)")
                let members = fleet.cluster.endpoints.map { "\($0.host ?? "?"):\($0.port ?? 0)" }
                #expect(members.contains { error.description.contains($0) }, "\(what): \(error)")
                #expect(!error.description.contains("pw"), "\(what): \(error)")
            } catch {
                Issue.record("\(what): \(error)")
            }
        }
        expectUnavailable("get") { _ = try host.keyring.credentials(forKey: "synced") }
        expectUnavailable("set") { try host.keyring.set(try Fixtures.credentials("late", sync: true), forKey: "late") }
        expectUnavailable("move") {
            try host.keyring.set(try Fixtures.credentials("desk", password: "moved", sync: true), forKey: "desk")
        }
        expectUnavailable("secret") { try host.keyring.setSecret(Data("x".utf8), forKey: "late-secret", sync: true) }
        expectUnavailable("list") { _ = try host.keyring.list() }
        expectUnavailable("removeAll") { _ = try host.keyring.removeAll() }
        #expect(try host.local.record(for: fleet.id("late")) == nil)
        #expect(try host.local.record(for: fleet.id("late-secret", .secret)) == nil)
        let desk = try #require(try host.local.record(for: fleet.id("desk")))
        #expect(desk.metadata.syncEnabled == false)
        #expect(String(decoding: desk.secret, as: UTF8.self) == "desk-pw-3")
        // removeAll failed before it touched this machine.
        #expect(try host.keyring.list(place: .local).map(\.key) == ["desk"])
    }
}

/// Runs an async call to completion from a synchronous test.
private func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

private final class ResultBox<T: Sendable>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

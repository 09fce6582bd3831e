import Foundation
import KeyringEtcd
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Members die and come back: on a cluster of the test's own, since it is broken on purpose.
@Suite("etcd store failover")
struct EtcdFailoverTests {
    @Test(
        "Writers keep going while the leader is SIGKILLed; with one member left calls fail within the bound; restarted, every acknowledged record is there"
    )
    func leaderLossThenQuorumLoss() throws {
        let cluster = try EtcdCluster.start()
        defer { cluster.stop() }
        let prefix = Fixtures.prefix()
        let keyFile = try Fixtures.keyFile()
        let service = Fixtures.service("fleet")
        let leader = try cluster.leader()

        // Two writers, each with a store of its own as two hosts would have, 60 records each;
        // a third thread kills the leader once 20 records are in.
        let acknowledged = Acknowledged()
        let failures = ConcurrentFailures()
        // Threads of their own, released together from one barrier (concurrentPerform runs one per core).
        let reached = AtOnce.threads(3) { worker in
            Self.work(
                worker, cluster: cluster, prefix: prefix, keyFile: keyFile, service: service, leader: leader,
                acknowledged: acknowledged, failures: failures)
        }
        print("EtcdFailoverTests: \(reached) of 3 threads (two writers, one killer) were waiting on the barrier when it opened")
        #expect(reached == 3, "only \(reached) of 3 threads reached the barrier")
        // A lost leader is retried on the other members within each call's bound.
        #expect(failures.all.isEmpty)
        #expect(acknowledged.count == 120)
        // The kill fell while both writers were still writing, or the retry was never needed.
        let atKill = try #require(acknowledged.atKill, "the leader was never killed")
        for worker in 0..<2 {
            let written = atKill.filter { $0.hasPrefix("w\(worker)-") }.count
            print("EtcdFailoverTests: writer \(worker) had \(written) of 60 records acknowledged when the leader died")
            #expect(written < 60, "writer \(worker) had finished (\(written) of 60) before the leader was killed")
        }

        // Reads work with two of three members, asked only of the survivors.
        let survivors = (1...3).filter { $0 != leader }
        let survivorEndpoints = survivors.map { cluster.endpoints[$0 - 1] }
        let reader = try Keyring(
            service: service, store: Fixtures.store(cluster, prefix: prefix, keyFile: keyFile, endpoints: survivorEndpoints))
        for key in acknowledged.all {
            #expect(try reader.password(forKey: key) == "secret-\(key)", "\(key) was acknowledged but is not readable")
        }
        #expect(try reader.list().count == 120)

        // With a second member gone there is no quorum: calls fail, within their bound, as unavailable.
        let bounded = try Keyring(
            service: service,
            store: Fixtures.store(cluster, prefix: prefix, keyFile: keyFile, timeout: .seconds(2)))
        let patient = try Fixtures.store(cluster, prefix: prefix, keyFile: keyFile, timeout: .seconds(60))
        try cluster.kill(survivors[0])
        for call in [
            { _ = try bounded.credentials(forKey: "w0-0") },
            { try bounded.set(try Fixtures.credentials("late"), forKey: "late") },
        ] {
            #expect {
                try call()
            } throws: { error in
                switch (error as? KeyringError)?.code {
                case .serviceUnavailable?, .timedOut?: return true
                default: return false
                }
            }
        }
        // The tool says so with exit status 69.
        let tool = try Command.run(
            Command.tool, ["get", "--service", service, "w0-0"],
            environment: Fixtures.toolEnvironment(cluster, prefix: prefix, keyFile: keyFile, home: Fixtures.folder.path))
        #expect(tool.status == 69, "stderr: \(tool.stderr)")
        #expect(!tool.text.contains("secret-"))

        // A call with a long bound ends at once when its operation is cancelled.
        let cancellation = OperationCancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { cancellation.cancel() }
        #expect(throws: CancellationError.self) {
            try cancellation.bind { _ = try patient.record(for: RecordID(service: service, key: "w0-0", kind: .credentials)) }
        }

        // Both come back on their data: every acknowledged record is there.
        try cluster.restart(leader)
        try cluster.restart(survivors[0])
        let after = try Keyring(service: service, store: Fixtures.store(cluster, prefix: prefix, keyFile: keyFile))
        for key in acknowledged.all {
            #expect(try after.password(forKey: key) == "secret-\(key)", "\(key) was lost")
        }
        #expect(try after.list().count == 120)
    }

    private static func work(
        _ worker: Int, cluster: EtcdCluster, prefix: String, keyFile: URL, service: String, leader: Int,
        acknowledged: Acknowledged, failures: ConcurrentFailures
    ) {
        do {
            if worker == 2 {
                while acknowledged.count < 20 && failures.all.isEmpty { usleep(5_000) }
                try cluster.kill(leader)
                acknowledged.markKill()
                return
            }
            // The leader first, so the writers are talking to the member that dies.
            let endpoints =
                [cluster.endpoints[leader - 1]] + cluster.endpoints.enumerated().filter { $0.offset != leader - 1 }.map(\.element)
            let keyring = try Keyring(
                service: service, store: Fixtures.store(cluster, prefix: prefix, keyFile: keyFile, endpoints: endpoints))
            for index in 0..<60 {
                let key = "w\(worker)-\(index)"
                try keyring.set(try Fixtures.credentials("writer\(worker)", password: "secret-\(key)"), forKey: key)
                acknowledged.add(key)
            }
        } catch {
            failures.record("worker \(worker): \(error)")
        }
    }
}

/// Keys whose `set` returned, from many threads.
final class Acknowledged: @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [String] = []

    private var keysAtKill: [String]?

    func add(_ key: String) { lock.withLock { keys.append(key) } }
    var count: Int { lock.withLock { keys.count } }
    var all: [String] { lock.withLock { keys } }
    /// Notes the keys acknowledged when the leader's SIGKILL returned.
    func markKill() { lock.withLock { keysAtKill = keys } }
    /// The keys acknowledged when the leader was killed; nil when it was not.
    var atKill: [String]? { lock.withLock { keysAtKill } }
}

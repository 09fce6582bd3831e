import Foundation
import Testing

/// A 3-node etcd cluster on loopback, started by Scripts/etcd-cluster.sh.
///
/// `shared` is the one `Scripts/with-etcd.sh` started for the whole run (or, when the
/// tests run without it, one this process starts on first use and stops at exit): tests
/// that do not break it use it, each under a prefix of its own. Tests that kill members
/// start a cluster of their own with `start()`. Both fail, never skip, when no cluster
/// can be had.
package struct EtcdCluster: Sendable {
    package let directory: URL?
    package let endpoints: [URL]

    package var endpointList: String { endpoints.map(\.absoluteString).joined(separator: ",") }

    /// The cluster `Scripts/with-etcd.sh` started.
    package static func shared() throws -> EtcdCluster {
        if let list = ProcessInfo.processInfo.environment["SWIFT_KEYRING_TEST_ETCD_ENDPOINTS"], !list.isEmpty {
            return EtcdCluster(directory: nil, endpoints: list.split(separator: ",").compactMap { URL(string: String($0)) })
        }
        return try onDemand.get()
    }

    /// The cluster started for this process when no `with-etcd.sh` gave one; stopped at exit.
    private static let onDemand: Result<EtcdCluster, any Error> = {
        Result {
            let cluster = try start()
            onDemandDirectory = cluster.directory
            atexit {
                if let directory = EtcdCluster.onDemandDirectory {
                    EtcdCluster(directory: directory, endpoints: []).stop()
                }
            }
            return cluster
        }
    }()

    /// Set once, by `onDemand`'s initialiser, before `atexit` can read it.
    nonisolated(unsafe) private static var onDemandDirectory: URL?

    /// A cluster of this test's own, to break; with `tls` (a folder of ca.pem, server.pem and
    /// server-key.pem) its clients speak https and must present a certificate.
    package static func start(tls: URL? = nil) throws -> EtcdCluster {
        let root = ProcessInfo.processInfo.environment["SWIFT_KEYRING_TEST_ETCD_ROOT"] ?? NSTemporaryDirectory()
        let directory = URL(fileURLWithPath: root).appendingPathComponent("cluster-\(UUID().uuidString.prefix(8))")
        var environment = ProcessInfo.processInfo.environment
        environment["ETCD_CLUSTER_TLS"] = tls?.path
        let result = try Command.run("bash", [script, "start", directory.path], environment: environment, timeout: 200)
        guard result.status == 0 else {
            throw ClusterFailure("the etcd cluster did not start: \(result.stderr)")
        }
        let list = result.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return EtcdCluster(directory: directory, endpoints: list.split(separator: ",").compactMap { URL(string: String($0)) })
    }

    /// Stops this test's own cluster and removes its data.
    package func stop() {
        guard let directory else { return }
        _ = try? Command.run("bash", [Self.script, "stop", directory.path])
        try? FileManager.default.removeItem(at: directory)
    }

    /// Kills member `n` (1-3) with SIGKILL and waits until it is gone.
    package func kill(_ n: Int) throws {
        let pid = try pidOf(n)
        Glibc.kill(pid, SIGKILL)
        while FileManager.default.fileExists(atPath: "/proc/\(pid)/stat"),
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            !stat.contains(") Z ")
        {
            usleep(10_000)
        }
    }

    /// Stops member `n` (1-3) with SIGSTOP and waits until it is stopped: it keeps its port and
    /// its connections but answers nothing, as a member that hangs would. `resume(_:)` undoes it;
    /// `stop()` ends a stopped member too.
    package func pause(_ n: Int) throws {
        let pid = try pidOf(n)
        Glibc.kill(pid, SIGSTOP)
        let until = ContinuousClock.now + .seconds(5)
        while let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), !stat.contains(") T ") {
            guard ContinuousClock.now < until, !stat.contains(") Z ") else {
                throw ClusterFailure("member \(n) did not stop")
            }
            usleep(1_000)
        }
    }

    /// Continues member `n` (1-3) after `pause(_:)`; a member that was not stopped is left as it is.
    package func resume(_ n: Int) {
        guard let pid = try? pidOf(n) else { return }
        Glibc.kill(pid, SIGCONT)
    }

    /// Starts member `n` again on its own data.
    package func restart(_ n: Int) throws {
        let result = try Command.run("bash", [Self.script, "start-node", try ownDirectory().path, String(n)], timeout: 60)
        guard result.status == 0 else { throw ClusterFailure("member \(n) did not restart: \(result.stderr)") }
    }

    /// The member (1-3) that is the leader now.
    package func leader() throws -> Int {
        for (index, endpoint) in endpoints.enumerated() {
            let result = try Command.run(
                "etcdctl", ["--endpoints=\(endpoint.absoluteString)", "endpoint", "status", "-w", "fields"],
                environment: ["ETCDCTL_API": "3", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"])
            // `-w fields` prints `"MemberID" : N` and `"Leader" : N`; the leader is the member naming itself.
            let fields = Dictionary(
                result.text.split(separator: "\n").compactMap { line -> (String, String)? in
                    let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    return parts.count == 2 ? (parts[0], parts[1]) : nil
                },
                uniquingKeysWith: { first, _ in first })
            if let member = fields["\"MemberID\""], member == fields["\"Leader\""] { return index + 1 }
        }
        throw ClusterFailure("no member says it is the leader")
    }

    /// Every key and value in the cluster, as `etcdctl get --prefix ""` prints them.
    package func dump() throws -> Data {
        let result = try Command.run(
            "etcdctl", ["--endpoints=\(endpointList)", "get", "--prefix", ""],
            environment: ["ETCDCTL_API": "3", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"])
        guard result.status == 0 else { throw ClusterFailure("etcdctl get failed: \(result.stderr)") }
        return result.stdout
    }

    private static var script: String { Command.scripts.appendingPathComponent("etcd-cluster.sh").path }
    private var script: String { Self.script }

    private func ownDirectory() throws -> URL {
        guard let directory else { throw ClusterFailure("the shared cluster is not this test's to break") }
        return directory
    }

    private func pidOf(_ n: Int) throws -> pid_t {
        let text = try String(contentsOf: try ownDirectory().appendingPathComponent("n\(n).pid"), encoding: .utf8)
        guard let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ClusterFailure("no pid for member \(n)")
        }
        return pid
    }
}

package struct ClusterFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

import Foundation
import KeyringTestSupport

/// etcd users and roles, set up with `etcdctl` as an operator would, for tests that need authentication on.
enum EtcdUsers {
    /// The user the store logs in as; it may read and write the test's prefix only.
    static let user = "fleet"

    /// Adds `root` and `fleet` (read-write on `prefix` only), turns authentication on, and
    /// returns a file (mode 0600) holding fleet's `password` and a final newline.
    static func enableAuthentication(on cluster: EtcdCluster, prefix: String, password: String) throws -> URL {
        for arguments in [
            ["user", "add", "root", "--new-user-password=\(rootPassword(password))"],
            ["user", "grant-role", "root", "root"],
            ["user", "add", user, "--new-user-password=\(password)"],
            ["role", "add", "fleet-rw"],
            ["role", "grant-permission", "fleet-rw", "--prefix=true", "readwrite", prefix],
            ["user", "grant-role", user, "fleet-rw"],
            ["auth", "enable"],
        ] {
            try etcdctl(cluster.endpointList, arguments)
        }
        let file = Fixtures.folder.appendingPathComponent("etcd-password-\(UUID().uuidString.prefix(6))")
        guard
            FileManager.default.createFile(
                atPath: file.path, contents: Data((password + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw ClusterFailure("cannot write the password file \(file.path)")
        }
        return file
    }

    /// Makes every token fleet holds invalid, as its expiry would: etcd forgets a user's tokens
    /// when its password is set, here to the same one. Asked of `endpoint`, so that member
    /// has forgotten them when this returns.
    static func invalidateTokens(at endpoint: URL, password: String) throws {
        try etcdctl(
            endpoint.absoluteString,
            ["--user=root:\(rootPassword(password))", "user", "passwd", user, "--interactive=false"], stdin: password + "\n")
    }

    private static func rootPassword(_ password: String) -> String { "root-\(password)" }

    private static func etcdctl(_ endpoints: String, _ arguments: [String], stdin: String? = nil) throws {
        let result = try Command.run(
            "etcdctl", ["--endpoints=\(endpoints)"] + arguments,
            environment: ["ETCDCTL_API": "3", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"], stdin: stdin)
        guard result.status == 0 else {
            throw ClusterFailure(
                "etcdctl \(arguments.filter { !$0.contains("password") && !$0.hasPrefix("--user") }.prefix(3)): \(result.stderr)")
        }
    }
}

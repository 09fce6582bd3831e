import Foundation
import KeyringTestSupport
import Testing

/// The stores the git helper is driven on, each chosen as the tool chooses: by `SWIFT_KEYRING_*`.
enum GitHelperStore: String, CaseIterable, CustomStringConvertible, Sendable {
    case file
    case secretService
    case etcd
    case kernel

    var description: String { rawValue }

    /// The store's environment; the Secret Service and etcd ones fail, never skip, without their daemon.
    func environment(_ sandbox: Sandbox) throws -> [String: String] {
        switch self {
        case .file:
            return sandbox.fileEnvironment()
        case .secretService:
            try #require(
                ProcessInfo.processInfo.environment["SWIFT_KEYRING_PRIVATE_SECRET_SERVICE"] == "1",
                "run the tests through Scripts/with-secret-service.sh (Scripts/test.sh does)")
            return sandbox.secretServiceEnvironment()
        case .etcd:
            let cluster = try EtcdCluster.shared()
            return sandbox.baseEnvironment().merging([
                "SWIFT_KEYRING_BACKEND": "etcd", "SWIFT_KEYRING_ETCD_ENDPOINTS": cluster.endpointList,
                "SWIFT_KEYRING_ETCD_PREFIX": "git-\(UUID().uuidString.prefix(8).lowercased())/",
                "SWIFT_KEYRING_KEY_FILE": sandbox.keyFile.path,
            ]) { $1 }
        case .kernel:
            // The user's persistent keyring, shared by the whole run: the hosts keep tests apart.
            return sandbox.baseEnvironment().merging(["SWIFT_KEYRING_BACKEND": "kernel"]) { $1 }
        }
    }
}

/// git's own `git credential fill | approve | reject` driving the built helper, on every store.
/// Hosts are unique to each test, as the Secret Service is shared by the whole run.
@Suite("git credential helper")
struct GitCredentialHelperTests {
    static func uniqueHost() -> String { "h\(UUID().uuidString.prefix(8).lowercased()).example.com" }

    /// `username=` and `password=` of a `git credential fill`, or `nil` when it found none.
    static func fill(_ git: GitClient, _ attributes: [String]) throws -> (username: String, password: String)? {
        let result = try git.credential("fill", attributes)
        guard result.status == 0 else { return nil }
        var fields: [String: String] = [:]
        for line in result.text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let username = fields["username"], let password = fields["password"] else { return nil }
        return (username, password)
    }

    @Test(
        "fill, approve and reject: several users per host, the empty username, paths, erase by password",
        arguments: GitHelperStore.allCases)
    func fillApproveReject(store: GitHelperStore) throws {
        let sandbox = try Sandbox()
        let git = GitClient(sandbox: sandbox, storeEnvironment: try store.environment(sandbox))
        let host = Self.uniqueHost()
        let tokenHost = Self.uniqueHost()
        defer {
            for (name, user) in [(host, "alice"), (host, "bob"), (tokenHost, "")] {
                _ = try? git.credential("reject", ["protocol=https", "host=\(name)", "username=\(user)"])
            }
        }
        #expect(try Self.fill(git, ["protocol=https", "host=\(host)"]) == nil, "found a credential before any was stored")

        let alice = try git.credential("approve", ["protocol=https", "host=\(host)", "username=alice", "password=alice-pw 🔑"])
        #expect(alice.status == 0, "approve failed: \(alice.stderr)")
        #expect(try git.credential("approve", ["protocol=https", "host=\(host)", "username=bob", "password=bob-pw"]).status == 0)
        #expect(try Self.fill(git, ["protocol=https", "host=\(host)", "username=bob"])! == ("bob", "bob-pw"))
        #expect(try Self.fill(git, ["protocol=https", "host=\(host)", "username=alice"])! == ("alice", "alice-pw 🔑"))
        #expect(
            try Self.fill(git, ["protocol=https", "host=\(host)"])! == ("alice", "alice-pw 🔑"), "the first key, byte by byte")
        #expect(try Self.fill(git, ["protocol=http", "host=\(host)"]) == nil, "http is another protocol")
        #expect(try Self.fill(git, ["protocol=https", "host=\(host):8443"]) == nil, "the port is part of the host")

        // A token-only host: git stores an empty username, and gets it back exactly.
        #expect(
            try git.credential("approve", ["protocol=https", "host=\(tokenHost)", "username=", "password=tok-123"]).status == 0)
        #expect(try Self.fill(git, ["protocol=https", "host=\(tokenHost)"])! == ("", "tok-123"))
        let listed = try CLI.run(["list", "--service", "git-credential"], environment: git.environment)
        #expect(listed.stdout.contains("https://@\(tokenHost)\t(empty)\thttps://\(tokenHost)\t-\n"))
        #expect(listed.stdout.contains("https://alice@\(host)\talice\thttps://\(host)\t-\n"))

        // A stale rejection (another password) leaves the fresh credential; the right one removes only alice.
        #expect(
            try git.credential("reject", ["protocol=https", "host=\(host)", "username=alice", "password=old-pw"]).status == 0)
        #expect(try Self.fill(git, ["protocol=https", "host=\(host)", "username=alice"])! == ("alice", "alice-pw 🔑"))
        #expect(
            try git.credential("reject", ["protocol=https", "host=\(host)", "username=alice", "password=alice-pw 🔑"]).status == 0)
        #expect(try Self.fill(git, ["protocol=https", "host=\(host)"])! == ("bob", "bob-pw"))
        #expect(
            !(try CLI.run(["list", "--service", "git-credential"], environment: git.environment).stdout.contains("alice@\(host)"))
        )
    }

    @Test(
        "With credential.useHttpPath the path takes part; without it any stored path matches", arguments: GitHelperStore.allCases)
    func paths(store: GitHelperStore) throws {
        let sandbox = try Sandbox()
        var git = GitClient(sandbox: sandbox, storeEnvironment: try store.environment(sandbox))
        git.settings = ["credential.useHttpPath=true"]
        let host = Self.uniqueHost()
        defer { _ = try? git.credential("reject", ["protocol=https", "host=\(host)", "path=org/one.git"]) }
        let stored = ["protocol=https", "host=\(host)", "path=org/one.git", "username=carol", "password=one-pw"]
        #expect(try git.credential("approve", stored).status == 0)
        #expect(try Self.fill(git, ["protocol=https", "host=\(host)", "path=org/one.git"])! == ("carol", "one-pw"))
        #expect(try Self.fill(git, ["protocol=https", "host=\(host)", "path=org/two.git"]) == nil)
        // The same through a URL: git splits it into its parts before asking.
        #expect(try Self.fill(git, ["url=https://\(host)/org/one.git"])! == ("carol", "one-pw"))
        let listed = try CLI.run(["list", "--service", "git-credential"], environment: git.environment)
        #expect(listed.stdout.contains("https://carol@\(host)/org/one.git\tcarol\thttps://\(host)/org/one.git\t-\n"))
        // Without useHttpPath git sends no path, and a record stored with one answers.
        git.settings = []
        #expect(try Self.fill(git, ["protocol=https", "host=\(host)", "path=org/two.git"])! == ("carol", "one-pw"))
    }
}
